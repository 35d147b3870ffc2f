/**
 * An image URL input with a live thumbnail. The field's hint (size) is shown by the field template.
 * Issue 4 replaces the URL input with an upload widget; the stored value stays a URL.
 */
import { Box } from '@mui/material';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { Thumbnail } from '../shell/Thumbnail.tsx';

export function ImageWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  const url = typeof props.value === 'string' ? props.value.trim() : '';
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1 }}>
        <BaseInputTemplate {...props} type="text" />
      </Box>
      {url && (
        <Box sx={{ pt: 1 }}>
          <Thumbnail src={url} width={75} height={45} alt="Image preview" />
        </Box>
      )}
    </Box>
  );
}
