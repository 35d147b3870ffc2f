/**
 * The widget of a drawn QR code field (`drawn: { from, as: 'qrcode' }`): a live preview of the QR
 * code of the form's current source text (drawn at 400x400, shown smaller), never typed into. The
 * form draws and uploads the image as it is submitted (see dialogs/drawn.tsx).
 */
import { Box, FormLabel, Typography } from '@mui/material';
import type { WidgetProps } from '@rjsf/utils';
import { QRCodeCanvas } from 'qrcode.react';
import type { DrawnWidgetOptions } from '../dialogs/ui-schema.ts';
import { QR_DRAWING, QR_SIZE, qrAlt } from './qr.ts';

/** What FormDialog passes to widgets through RJSF's `formContext`. */
export interface FormContext {
  /** The form's current data. */
  formData?: Record<string, unknown>;
}

const PREVIEW_PX = 160;

export function QrWidget(props: WidgetProps) {
  const { id, label, required, rawErrors = [], value } = props;
  const { drawn } = props.options as unknown as DrawnWidgetOptions;
  const formData = (props.registry.formContext as FormContext | undefined)?.formData ?? {};
  const source = formData[drawn.from];
  const text = (typeof source === 'string' ? source : source == null ? '' : String(source)).trim();
  const stored = typeof value === 'string' ? value : '';
  const captionId = `${id}__caption`;
  const sourceProp = (props.registry.rootSchema.properties ?? {})[drawn.from];
  const sourceLabel = ((typeof sourceProp === 'object' && sourceProp.title) || drawn.from).toLowerCase();

  return (
    <Box id={id} role="group" aria-labelledby={`${id}__label`} aria-describedby={captionId} sx={{ mt: 1 }}>
      <FormLabel id={`${id}__label`} required={required} error={rawErrors.length > 0} sx={{ display: 'block', mb: 1 }}>
        {label}
      </FormLabel>
      <Box
        sx={{
          width: PREVIEW_PX,
          height: PREVIEW_PX,
          maxWidth: '100%',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          bgcolor: '#fff',
        }}
      >
        {text ? (
          <QRCodeCanvas
            value={text}
            size={QR_SIZE}
            aria-label={qrAlt(text)}
            style={{ width: PREVIEW_PX, height: PREVIEW_PX, maxWidth: '100%' }}
            {...QR_DRAWING}
          />
        ) : (
          <Typography variant="caption" color="text.secondary" sx={{ p: 1, textAlign: 'center' }}>
            Type a {sourceLabel} to draw its QR code.
          </Typography>
        )}
      </Box>
      <Typography id={captionId} variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
        {stored
          ? `Drawn from the ${sourceLabel}; saving uploads a new image only if the ${sourceLabel} changed.`
          : `Drawn from the ${sourceLabel}; uploaded as a 400x400 PNG when you save.`}
      </Typography>
    </Box>
  );
}
