/**
 * The upload widget, the gallery's Upload button and the gallery image view (spec §5 Upload, §8 File
 * validation, §9). The network is faked at its boundary: `fetch` by the fake server, and
 * XMLHttpRequest (the upload provider uses it for progress) by FakeXhr below, so the provider's own
 * code runs as in the browser.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext } from 'react-admin';
import { afterEach, beforeEach, vi } from 'vitest';
import { registry } from '../../resources/index.ts';
import { acceptOf } from '../../src/manifest/uploads.ts';
import { openDialog } from '../../src/client/dialogs/context.ts';
import { GalleryImageView } from '../../src/client/dialogs/views/GalleryImageView.tsx';
import { createDataProvider } from '../../src/client/providers/data.ts';
import { ToastProvider } from '../../src/client/shell/toast.tsx';
import { UploadButton } from '../../src/client/widgets/UploadButton.tsx';
import { fakeServer } from './fake-server.ts';
import { render, renderDialogHost } from './harness.tsx';

/* A stand-in for XMLHttpRequest that records each request and answers when the test says. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  body: FormData | undefined;
  status = 0;
  responseText = '';
  responseType = '';
  withCredentials = false;
  aborted = false;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  reply(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
  get files() {
    return this.body!.getAll('files') as File[];
  }
}

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const png = (name: string) => new File([PNG], name, { type: 'image/png' });
const STORED = 'http://localhost:3000/assets/images/banners/0123456789abcdef01234567.png';
const STORED_PATH = 'banners/0123456789abcdef01234567.png';

let objectUrls: { made: string[]; revoked: string[] };

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // Object URLs stood in for and recorded: previews and downloads make them.
  objectUrls = { made: [], revoked: [] };
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:preview/${objectUrls.made.length}/${(blob as File).name ?? 'blob'}`;
      objectUrls.made.push(url);
      return url;
    },
    revokeObjectURL: (url: string) => void objectUrls.revoked.push(url),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

async function openAddBanner() {
  renderDialogHost();
  act(() => openDialog('add-banner'));
  const dialog = await screen.findByRole('dialog', { name: 'Create banner' });
  const choose = await within(dialog).findByRole('button', { name: 'Choose files' });
  const input = within(dialog).getByLabelText('Choose files', { selector: 'input' }) as HTMLInputElement;
  return { dialog, choose, input };
}

const toast = async (title: string) => {
  const alert = await screen.findByRole('alert');
  await waitFor(() => expect(within(alert).getByText(title)).toBeTruthy());
  return alert;
};

describe('UploadWidget in a form (add-banner: one image, banners endpoint)', () => {
  it('offers a keyboard-reachable Choose files button taking the endpoint’s types, with the field’s hint', async () => {
    fakeServer();
    const user = userEvent.setup();
    const { dialog, choose, input } = await openAddBanner();
    expect(input.accept).toBe(acceptOf('banners'));
    expect(within(dialog).getByText('Image size 2500x700, one file')).toBeTruthy();
    expect(within(dialog).getByText('WEBP, PNG or JPG, up to 5 MB.')).toBeTruthy();
    const clicked = vi.spyOn(input, 'click');
    choose.focus();
    await user.keyboard('{Enter}');
    expect(clicked).toHaveBeenCalled();
  });

  it('warns when 2 files are chosen for a field that takes 1, and uploads nothing', async () => {
    fakeServer();
    const user = userEvent.setup();
    const { input } = await openAddBanner();
    await user.upload(input, [png('a.png'), png('b.png')]);
    const alert = await toast('Files select error. Please select 1 files.');
    expect(alert.className).toMatch(/Warning/);
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('refuses a file whose content is not an image before uploading, whatever its name says', async () => {
    fakeServer();
    const user = userEvent.setup();
    const { dialog, input } = await openAddBanner();
    await user.upload(input, new File(['<!doctype html><script>alert(1)</script>'], 'evil.png', { type: 'image/png' }));
    const alert = await toast('File Validation error');
    expect(within(alert).getByText('evil.png: only webp, png, jpg files are allowed.')).toBeTruthy();
    // Dropped files skip the input's `accept`: they are judged the same.
    fireEvent.drop(within(dialog).getByTestId('root_url__dropzone'), {
      dataTransfer: { files: [new File(['%PDF-1.4'], 'doc.pdf', { type: 'application/pdf' })] },
    });
    await waitFor(() => expect(screen.getByText('doc.pdf: only webp, png, jpg files are allowed.')).toBeTruthy());
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('uploads a chosen image with progress, sets the URL as the value, previews it, and sends it on submit', async () => {
    const server = fakeServer({ 'POST /api/admin/v1/banners': (call) => ({ status: 201, body: { id: 'b1', ...(call.body as object) } }) });
    const user = userEvent.setup();
    const { dialog, input } = await openAddBanner();
    await user.upload(input, png('hero.png'));

    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0];
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/s3/upload');
    expect(xhr.body!.get('endpoint')).toBe('banners');
    expect(xhr.files.map((f) => f.name)).toEqual(['hero.png']);
    // While it uploads: the chosen file's preview, a progress bar and a Cancel.
    expect((await within(dialog).findByRole('img', { name: 'Preview of hero.png' })).getAttribute('src')).toMatch(/^blob:preview\//);
    xhr.progress(50, 100);
    expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('50');
    expect(within(dialog).getByRole('button', { name: 'Cancel upload' })).toBeTruthy();

    xhr.reply(200, [STORED]);
    const preview = await within(dialog).findByRole('img', { name: 'Preview of 0123456789abcdef01234567.png' });
    expect(preview.getAttribute('src')).toBe(STORED);
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    // The chosen file's object URL is let go once it is no longer shown.
    await waitFor(() => expect(objectUrls.revoked).toEqual(objectUrls.made));

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'POST')).toBeTruthy());
    expect(server.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ url: STORED });
  });

  it('Remove clears the value and deletes the file it uploaded; the form then wants an image again', async () => {
    const server = fakeServer({ 'DELETE /api/local-upload/delete': () => ({ body: { message: 'File deleted.' } }) });
    const user = userEvent.setup();
    const { dialog, input } = await openAddBanner();
    await user.upload(input, png('hero.png'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0].reply(200, [STORED]);
    await within(dialog).findByRole('img', { name: 'Preview of 0123456789abcdef01234567.png' });

    await user.click(await within(dialog).findByRole('button', { name: 'Remove' }));
    expect(within(dialog).queryByRole('img', { name: /^Preview of/ })).toBeNull();
    await waitFor(() => expect(server.calls).toHaveLength(1));
    expect(server.calls[0]).toMatchObject({ method: 'DELETE', path: '/api/local-upload/delete' });
    expect(server.calls[0].query.get('file')).toBe(STORED_PATH);

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(document.getElementById('root_url__error')?.textContent).toBe('Inavlid Image URL.'));
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows the server’s answer when it refuses an upload, and keeps no value', async () => {
    fakeServer();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    const { dialog, input } = await openAddBanner();
    await user.upload(input, png('hero.png'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0].reply(413, { message: 'File Validation error', errors: { files: ['hero.png is larger than 5 MB.'] } });
    const alert = await toast('File Validation error');
    expect(within(alert).getByText('hero.png is larger than 5 MB.')).toBeTruthy();
    expect(errors).toHaveBeenCalled();
    expect(within(dialog).queryByRole('img', { name: /^Preview of/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Choose files' })).toBeTruthy();
  });

  it('cancels an upload in flight', async () => {
    fakeServer();
    const user = userEvent.setup();
    const { dialog, input } = await openAddBanner();
    await user.upload(input, png('hero.png'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await user.click(await within(dialog).findByRole('button', { name: 'Cancel upload' }));
    expect(FakeXhr.sent[0].aborted).toBe(true);
    await within(dialog).findByRole('button', { name: 'Choose files' });
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps a URL input for images hosted elsewhere', async () => {
    const server = fakeServer({ 'POST /api/admin/v1/banners': (call) => ({ status: 201, body: { id: 'b1', ...(call.body as object) } }) });
    const user = userEvent.setup();
    const { dialog } = await openAddBanner();
    await user.click(within(dialog).getByRole('button', { name: 'Enter a URL instead' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Image URL' }), 'https://cdn.example.com/banner.jpg');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'POST')).toBeTruthy());
    expect(server.calls.find((c) => c.method === 'POST')!.body).toMatchObject({ url: 'https://cdn.example.com/banner.jpg' });
  });
});

describe('UploadButton (the media gallery: up to 5 files)', () => {
  const renderButton = () =>
    render(
      <ToastProvider>
        <AdminContext dataProvider={createDataProvider(registry)}>
          <UploadButton upload={{ endpoint: 'pagefile' }} />
        </AdminContext>
      </ToastProvider>,
    );

  it('asks for files, refuses more than 5, shows 3 as a gallery and uploads them together', async () => {
    fakeServer();
    const user = userEvent.setup();
    renderButton();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload files' });
    expect(within(dialog).getByText(/You can only upload up to 5 files\./)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    const none = await toast('Validation Error');
    expect(within(none).getByText('Please selected files')).toBeTruthy();

    const input = within(dialog).getByLabelText('Choose files', { selector: 'input' }) as HTMLInputElement;
    await user.upload(input, Array.from({ length: 6 }, (_, i) => png(`${i}.png`)));
    const many = await toast('File Validation error');
    expect(many.textContent).toContain('Total files cannot exceed 5.');
    expect(many.textContent).toContain('You can only upload up to 5 files.');

    await user.upload(input, [png('a.png'), png('b.png'), new File(['%PDF-1.4\n'], 'c.pdf', { type: 'application/pdf' })]);
    const chosen = await within(dialog).findByRole('list', { name: 'Chosen files' });
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(3);
    expect(chosen.style.display === 'grid' || getComputedStyle(chosen).display === 'grid').toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Remove b.png' }));
    expect(within(chosen).getAllByRole('listitem')).toHaveLength(2);

    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    expect(FakeXhr.sent[0].body!.get('endpoint')).toBe('pagefile');
    expect(FakeXhr.sent[0].files.map((f) => f.name)).toEqual(['a.png', 'c.pdf']);
    FakeXhr.sent[0].progress(1, 4);
    expect(within(dialog).getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('25');
    FakeXhr.sent[0].reply(200, [STORED, STORED.replace('.png', '.pdf')]);
    const done = await screen.findByRole('status');
    expect(within(done).getByText('Success!')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('GalleryImageView (media-gallery-image-details)', () => {
  const record = { id: 'm1', url: STORED, name: 'Hero banner.png', type: 'image/png', size: 12_583, endpoint: 'banners' };

  it('shows the preview, name, type and size, and downloads the file as an attachment', async () => {
    const server = fakeServer({ [`GET /assets/images/${STORED_PATH}`]: () => ({ body: 'x' }) });
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    render(<GalleryImageView record={record} onClose={() => {}} />);
    const img = screen.getByRole('img', { name: 'Preview of Hero banner.png' });
    expect(img.getAttribute('src')).toBe(STORED);
    expect(screen.getByText('Hero banner.png')).toBeTruthy();
    expect(screen.getByText('image/png')).toBeTruthy();
    expect(screen.getByText('12.3 KB (12,583 bytes)')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicks).toHaveBeenCalled());
    expect(server.calls[0].path).toBe(`/assets/images/${STORED_PATH}`);
    expect(server.calls[0].query.get('download')).toBe('1');
    const anchor = clicks.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(anchor.download).toBe('Hero banner.png');
  });

  it('only logs a failed download, with a short note', async () => {
    fakeServer({ [`GET /assets/images/${STORED_PATH}`]: () => ({ status: 404, body: { message: 'Not found.' } }) });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    render(<GalleryImageView record={record} onClose={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText('The download did not complete. Try again later.');
    expect(errors).toHaveBeenCalledWith('Download failed', expect.anything());
  });
});
