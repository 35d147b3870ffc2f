/**
 * How every QR code of the admin is drawn (qrcode.react): the form's live preview, the PNG uploaded
 * on submit and the details view's fallback all look alike. Spec §2: the QR image is 400x400.
 */
export const QR_SIZE = 400;

/** qrcode.react options: a 4-module quiet zone (what scanners expect), black on white, level M. */
export const QR_DRAWING = { marginSize: 4, level: 'M', bgColor: '#FFFFFF', fgColor: '#000000' } as const;

/** The accessible name of a drawn or stored QR code of `text`. */
export const qrAlt = (text: string) => `QR code: ${text}`;
