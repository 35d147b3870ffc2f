/**
 * Drawn fields (`drawn: { from, as: 'qrcode' }`): the image is drawn from another field's text when
 * the form is submitted, uploaded as a PNG, and the answered URL is the value sent.
 */
import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { QRCodeCanvas } from 'qrcode.react';
import type { FieldDef } from '../../manifest/index.ts';
import { slugify } from '../../domain/slug.ts';
import { uploadFiles } from '../providers/upload.ts';
import { QR_DRAWING, QR_SIZE, qrAlt } from '../widgets/qr.ts';

type Data = Record<string, unknown>;

/** A canvas of exactly `size` pixels: qrcode.react draws at `size × devicePixelRatio`. */
function atSize(canvas: HTMLCanvasElement, size: number): HTMLCanvasElement {
  if (canvas.width === size && canvas.height === size) return canvas;
  const out = document.createElement('canvas');
  out.width = out.height = size;
  const ctx = out.getContext('2d');
  if (!ctx) return canvas;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(canvas, 0, 0, size, size);
  return out;
}

function Drawing({ text, size, onDrawn }: { text: string; size: number; onDrawn: (c: HTMLCanvasElement | null) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Children's effects run first: QRCodeCanvas has drawn by the time this one runs.
  useEffect(() => onDrawn(canvas.current), []); // eslint-disable-line react-hooks/exhaustive-deps
  return <QRCodeCanvas ref={canvas} value={text} size={size} aria-label={qrAlt(text)} {...QR_DRAWING} />;
}

/** Draws the QR code of `text` (qrcode.react, off screen) and answers it as a `size`×`size` PNG. */
export function drawQrPng(text: string, size: number = QR_SIZE): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) => {
    const host = document.createElement('div');
    const root = createRoot(host);
    const fail = () => reject(new Error('The QR code could not be drawn.'));
    const onDrawn = (canvas: HTMLCanvasElement | null) => {
      try {
        if (!canvas) return fail();
        atSize(canvas, size).toBlob((blob) => (blob ? resolve(blob) : fail()), 'image/png');
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      } finally {
        // Not from inside React's commit: unmounting a root there is refused.
        setTimeout(() => root.unmount(), 0);
      }
    };
    root.render(<Drawing text={text} size={size} onDrawn={onDrawn} />);
  });
}

/** The text a drawn field is made from, as the rule will send it (trimmed). */
export function drawnText(f: FieldDef, values: Data): string {
  const v = values[f.drawn!.from];
  return (typeof v === 'string' ? v : v == null ? '' : String(v)).trim();
}

/** Which text each drawn field's stored image was drawn from, as the dialog opens: `{ field: text }`. */
export function drawnSources(fields: readonly FieldDef[], initial: Data): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const stored = initial[f.name];
    if (f.drawn && typeof stored === 'string' && stored.trim() !== '') out[f.name] = drawnText(f, initial);
  }
  return out;
}

/**
 * Whether the field must be drawn and uploaded now: when it holds no image yet, or when the text it
 * is drawn from changed since its image was drawn (an update keeps the stored URL otherwise).
 */
export function needsDrawing(f: FieldDef, values: Data, drawnFrom: Readonly<Record<string, string>>): boolean {
  const stored = values[f.name];
  if (typeof stored !== 'string' || stored.trim() === '') return true;
  return drawnFrom[f.name] !== drawnText(f, values);
}

/**
 * The values with each drawn field that needs it drawn, uploaded to its endpoint and set to the
 * answered URL; `drawnFrom` (see `drawnSources`) learns which text each new image was drawn from, so
 * a second submit after a failed call does not upload the same image again. Rejects with the upload's
 * error (an HttpError carrying the server's answer).
 */
export async function withDrawnImages(
  fields: readonly FieldDef[],
  values: Data,
  drawnFrom: Record<string, string>,
): Promise<Data> {
  let out = values;
  for (const f of fields) {
    if (!f.drawn || !f.upload || !needsDrawing(f, out, drawnFrom)) continue;
    const text = drawnText(f, out);
    if (!text) continue; // nothing to draw: the rule of the source field says why
    const png = await drawQrPng(text, QR_SIZE);
    const name = `${slugify(text, { unique: false }) || f.drawn.as}.png`;
    const [url] = await uploadFiles(f.upload.endpoint, [new File([png], name, { type: 'image/png' })]);
    out = { ...out, [f.name]: url };
    drawnFrom[f.name] = text;
  }
  return out;
}
