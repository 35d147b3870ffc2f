/**
 * An image field: with `upload` in its `ui:options` (the manifest's `upload`), the upload widget;
 * otherwise an image URL input with a live thumbnail. Either way the stored value is a URL. The field's
 * hint (size) is shown by the field template.
 */
import { Box } from '@mui/material';
import { getTemplate, type WidgetProps } from '@rjsf/utils';
import { Thumbnail } from '../shell/Thumbnail.tsx';
import { UploadWidget } from './UploadWidget.tsx';

export function ImageWidget(props: WidgetProps) {
  if ((props.options as { upload?: unknown }).upload) return <UploadWidget {...props} />;
  return <UrlImageWidget {...props} />;
}

function UrlImageWidget(props: WidgetProps) {
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
