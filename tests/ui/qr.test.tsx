/**
 * QR codes (spec §2, §5): the create/update dialogs draw the QR code of the title live, and on submit
 * upload it as a PNG (`POST /api/s3/upload`, endpoint 'pagefile') before sending the answered URL;
 * the details view shows the image at 400x400 with 'Scan the qr code'.
 *
 * The test DOM (happy-dom) has no canvas: `getContext` answers null (as a browser without 2D support
 * would) and `toBlob` is stood in for with a "PNG" naming the canvas it was taken from, so the test can
 * tell which text was drawn. The drawing itself (`drawQrPng`) runs in a real browser only.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { QrCodeView } from '../../src/client/dialogs/views/QrCodeView.tsx';
import { fakeServer, type SeenCall } from './fake-server.ts';
import { render, renderDialogHost } from './harness.tsx';

const UPLOAD = 'POST /api/s3/upload';
const QR_CODES = '/api/admin/v1/qr-codes';

/**
 * `uploadFiles` speaks XMLHttpRequest (for progress); this one hands the request to `fetch`, where the
 * fake server sees it like any other call.
 */
class FetchingXhr {
  status = 0;
  responseText = '';
  responseType = '';
  withCredentials = false;
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  private method = 'GET';
  private url = '';
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    fetch(this.url, { method: this.method, body: body as BodyInit, credentials: this.withCredentials ? 'include' : 'same-origin' }).then(
      async (res) => {
        this.status = res.status;
        this.responseText = await res.text();
        this.onload?.();
      },
      () => this.onerror?.(),
    );
  }
}

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FetchingXhr);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (this: HTMLCanvasElement, callback: BlobCallback) {
    setTimeout(() => callback(new Blob([`PNG of ${this.getAttribute('aria-label')}`], { type: 'image/png' })));
  });
});
afterEach(() => vi.unstubAllGlobals());

const fieldError = (id: string) => document.getElementById(`root_${id}__error`)?.textContent ?? '';

async function openQr(type: 'createQrcode' | 'updateQrcode', data?: Record<string, unknown>) {
  renderDialogHost();
  act(() => openDialog(type, data));
  const dialog = await screen.findByRole('dialog', { name: type === 'createQrcode' ? 'Create QR code' : 'Update QR code' });
  const title = await within(dialog).findByRole('textbox', { name: /^title/i });
  return { dialog, title };
}

/** A blob's text, read with a FileReader as every test DOM can (jsdom's Blob has no `text()`). */
function textOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** The multipart upload the fake server received: its endpoint and its one file. */
async function uploaded(call: SeenCall | undefined) {
  expect(call?.body).toBeInstanceOf(FormData);
  const form = call!.body as FormData;
  const files = form.getAll('files') as File[];
  expect(files).toHaveLength(1);
  return { endpoint: form.get('endpoint'), name: files[0].name, type: files[0].type, content: await textOf(files[0]) };
}

describe('createQrcode', () => {
  it('previews the QR code of the title as it is typed, drawn at 400x400', async () => {
    fakeServer();
    const user = userEvent.setup();
    const { dialog, title } = await openQr('createQrcode');
    expect(within(dialog).queryByRole('img')).toBeNull();
    expect(within(dialog).getByText('Type a title to draw its QR code.')).toBeTruthy();
    // The drawn field is not typed into.
    expect(within(dialog).getAllByRole('textbox')).toEqual([title]);

    await user.type(title, 'Spring Sale');
    const preview = within(dialog).getByRole('img', { name: 'QR code: Spring Sale' });
    expect(preview.tagName).toBe('CANVAS');
    expect(preview.getAttribute('width')).toBe('400');
    expect(preview.getAttribute('height')).toBe('400');
    await user.type(title, '!');
    expect(within(dialog).getByRole('img', { name: 'QR code: Spring Sale!' })).toBeTruthy();
  });

  it('validates the title first, without complaining about the QR code still to be drawn', async () => {
    const server = fakeServer();
    const user = userEvent.setup();
    const { dialog } = await openQr('createQrcode');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(fieldError('title')).toBe('QrCode name is required!'));
    expect(fieldError('qrcode')).toBe('');
    expect(within(dialog).queryByText('qrcode is required!')).toBeNull();
    expect(server.calls).toEqual([]);
  });

  it('uploads the drawn PNG to pagefile, then posts the title with the answered URL', async () => {
    const server = fakeServer({
      [UPLOAD]: () => ({ body: ['/images/pagefile/spring-sale.png'] }),
      [`POST ${QR_CODES}`]: () => ({ status: 201, body: { id: 'q1' } }),
    });
    const user = userEvent.setup();
    const { dialog, title } = await openQr('createQrcode');
    await user.type(title, '  Spring Sale ');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const toast = await screen.findByRole('status');
    expect(within(toast).getByText('QR code created successfully.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([UPLOAD, `POST ${QR_CODES}`]);
    expect(await uploaded(server.calls[0])).toEqual({
      endpoint: 'pagefile',
      name: 'spring-sale.png',
      type: 'image/png',
      // The PNG was taken from the QR code of the trimmed title.
      content: 'PNG of QR code: Spring Sale',
    });
    expect(server.calls[1].body).toEqual({ title: 'Spring Sale', qrcode: '/images/pagefile/spring-sale.png' });
  });

  it('on a failed upload shows the red toast with the server message, sends nothing and stays open', async () => {
    const server = fakeServer({ [UPLOAD]: () => ({ status: 500, body: { message: 'Storage is unavailable.' } }) });
    const user = userEvent.setup();
    const { dialog, title } = await openQr('createQrcode');
    await user.type(title, 'Spring Sale');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('Unable to create qrcode!')).toBeTruthy();
    expect(toast.textContent).toContain('Storage is unavailable.');
    expect(toast.className).toMatch(/Error/);
    expect(screen.getByRole('dialog', { name: 'Create QR code' })).toBe(dialog);
    expect((title as HTMLInputElement).value).toBe('Spring Sale');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([UPLOAD]);
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(false));
  });

  it('after a failed post, a second submit sends the image already uploaded', async () => {
    let posts = 0;
    const server = fakeServer({
      [UPLOAD]: () => ({ body: ['/images/pagefile/spring-sale.png'] }),
      [`POST ${QR_CODES}`]: () => (++posts === 1 ? { status: 500, body: { message: 'Try again.' } } : { status: 201, body: { id: 'q1' } }),
    });
    const user = userEvent.setup();
    const { dialog, title } = await openQr('createQrcode');
    await user.type(title, 'Spring Sale');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('Try again.');
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(false));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await screen.findByText('QR code created successfully.');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([UPLOAD, `POST ${QR_CODES}`, `POST ${QR_CODES}`]);
  });
});

describe('updateQrcode', () => {
  const record = { id: 'q1', title: 'Spring Sale', qrcode: '/images/pagefile/spring-sale.png' };

  it('keeps the stored image when the title did not change', async () => {
    const server = fakeServer({ [`PATCH ${QR_CODES}/q1`]: () => ({ body: { id: 'q1' } }) });
    const user = userEvent.setup();
    const { dialog } = await openQr('updateQrcode', record);
    expect(within(dialog).getByRole('img', { name: 'QR code: Spring Sale' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('QR code updated successfully.');
    expect(server.calls).toEqual([
      expect.objectContaining({ method: 'PATCH', path: `${QR_CODES}/q1`, body: { title: 'Spring Sale', qrcode: record.qrcode } }),
    ]);
  });

  it('draws and uploads again when the title changed', async () => {
    const server = fakeServer({
      [UPLOAD]: () => ({ body: ['/images/pagefile/autumn-sale.png'] }),
      [`PATCH ${QR_CODES}/q1`]: () => ({ body: { id: 'q1' } }),
    });
    const user = userEvent.setup();
    const { dialog, title } = await openQr('updateQrcode', record);
    await user.clear(title);
    await user.type(title, 'Autumn Sale');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('QR code updated successfully.');
    expect(server.calls.map((c) => `${c.method} ${c.path}`)).toEqual([UPLOAD, `PATCH ${QR_CODES}/q1`]);
    expect((await uploaded(server.calls[0])).content).toBe('PNG of QR code: Autumn Sale');
    expect(server.calls[1].body).toEqual({ title: 'Autumn Sale', qrcode: '/images/pagefile/autumn-sale.png' });
  });
});

describe('QrCodeView (qrcodedeatils)', () => {
  it('shows the stored image at 400x400, the title and "Scan the qr code", and closes', async () => {
    const onClose = vi.fn();
    render(<QrCodeView record={{ id: 'q1', title: 'Spring Sale', qrcode: '/images/pagefile/spring-sale.png' }} onClose={onClose} />);
    const img = screen.getByRole('img', { name: 'QR code: Spring Sale' });
    expect(img.tagName).toBe('IMG');
    expect(img.getAttribute('src')).toBe('/images/pagefile/spring-sale.png');
    expect(img.getAttribute('width')).toBe('400');
    expect(img.getAttribute('height')).toBe('400');
    expect(screen.getByText('Spring Sale')).toBeTruthy();
    expect(screen.getByText('Scan the qr code')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('draws the QR code of the title when no image is stored', () => {
    render(<QrCodeView record={{ id: 'q1', title: 'Spring Sale' }} onClose={() => {}} />);
    const canvas = screen.getByRole('img', { name: 'QR code: Spring Sale' });
    expect(canvas.tagName).toBe('CANVAS');
    expect(canvas.getAttribute('width')).toBe('400');
    expect(screen.getByText('Scan the qr code')).toBeTruthy();
  });

  it('is what the qrcodedeatils dialog shows', async () => {
    fakeServer();
    renderDialogHost();
    act(() => openDialog('qrcodedeatils', { id: 'q1', title: 'Spring Sale', qrcode: '/images/pagefile/spring-sale.png' }));
    const dialog = await screen.findByRole('dialog');
    const img = await within(dialog).findByRole('img', { name: 'QR code: Spring Sale' });
    expect(img.getAttribute('width')).toBe('400');
    expect(within(dialog).getByText('Scan the qr code')).toBeTruthy();
  });
});
