/**
 * The `qrcodedeatils` view (spec §2): the QR image at 400x400 with the title and the text
 * 'Scan the qr code'. A record without a stored image shows the QR code of its title, drawn live.
 * The image shrinks to the dialog's width on narrow screens.
 */
import { Box, DialogContent, Stack, Typography } from '@mui/material';
import { QRCodeCanvas } from 'qrcode.react';
import { QR_DRAWING, QR_SIZE, qrAlt } from '../../widgets/qr.ts';
import { CloseActions } from '../DialogButtons.tsx';

export interface QrCodeViewProps {
  record: Record<string, unknown>;
  onClose: () => void;
}

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

export function QrCodeView({ record, onClose }: QrCodeViewProps) {
  const title = text(record.title).trim();
  const image = text(record.qrcode).trim();
  const responsive = { maxWidth: '100%', height: 'auto', aspectRatio: '1 / 1', display: 'block' } as const;
  return (
    <>
      <DialogContent>
        <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center' }}>
          <Box sx={{ width: QR_SIZE, maxWidth: '100%' }}>
            {image ? (
              <Box component="img" src={image} width={QR_SIZE} height={QR_SIZE} alt={qrAlt(title)} sx={responsive} />
            ) : title ? (
              <QRCodeCanvas value={title} size={QR_SIZE} aria-label={qrAlt(title)} style={responsive} {...QR_DRAWING} />
            ) : null}
          </Box>
          {title && (
            <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere' }}>
              {title}
            </Typography>
          )}
          <Typography color="text.secondary">Scan the qr code</Typography>
        </Stack>
      </DialogContent>
      <CloseActions onClose={onClose} />
    </>
  );
}
