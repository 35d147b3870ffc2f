/**
 * A textarea with a live count of its characters against the field's `counter` (spec §5: a job
 * application's message shows 'n/500'). The count turns to the error colour past the most; the rule's
 * own messages still say what is wrong. Screen readers hear the count when typing pauses, not per key.
 */
import { Box, Typography } from '@mui/material';
import { getWidget, type WidgetProps } from '@rjsf/utils';
import { useDeferredValue } from 'react';

export function CountedTextareaWidget(props: WidgetProps) {
  const Textarea = getWidget(props.schema, 'textarea', props.registry.widgets);
  const most = Number((props.options as { counter?: unknown }).counter) || 0;
  const length = typeof props.value === 'string' ? props.value.length : 0;
  const heard = useDeferredValue(length);
  const id = `${props.id}__count`;
  return (
    <Box>
      <Textarea {...props} aria-describedby={id} />
      <Typography
        id={id}
        variant="caption"
        aria-live="polite"
        data-count={heard}
        sx={{ display: 'block', textAlign: 'right', color: length > most ? 'error.main' : 'text.secondary' }}
      >
        {length}/{most}
      </Typography>
    </Box>
  );
}
