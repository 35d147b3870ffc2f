/**
 * Uploading files to the declared upload call (`POST /api/s3/upload`, multipart `files` + `endpoint`)
 * and deleting one again. XMLHttpRequest rather than fetch: only it reports upload progress.
 */
import { HttpError } from 'react-admin';
import type { UploadEndpoint } from '../../manifest/index.ts';
import { fillPath, parseCall, urlOf } from '../../manifest/index.ts';
import { ASSETS_PATH } from '../../manifest/uploads.ts';
// The media gallery is a system resource the core runs (as the server's upload routes do): named here
// directly, not looked up in the registry.
import { media } from '../../../resources/system.ts';

const operations = media.operations;
const uploadUrl = urlOf(parseCall(operations.upload.call).path);
const deleteUrl = urlOf(fillPath(parseCall(operations.deleteFile.call).path, {}));

/** Uploads `files` to `endpoint`; answers the stored files' URLs in the files' order. */
export function uploadFiles(
  endpoint: UploadEndpoint,
  files: readonly File[],
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('endpoint', endpoint);
    for (const f of files) form.append('files', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', uploadUrl);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300 && Array.isArray(body)) return resolve(body as string[]);
      const message = (body as { message?: string })?.message ?? `Upload failed (${xhr.status})`;
      reject(new HttpError(message, xhr.status, body));
    };
    xhr.onerror = () => reject(new HttpError('Upload failed: the server could not be reached.', 0, {}));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** The path after the images assets folder of an uploaded file's URL, or undefined for other URLs. */
export function storedPathOf(url: string): string | undefined {
  try {
    const { pathname, origin } = new URL(url, window.location.origin);
    if (origin !== window.location.origin || !pathname.startsWith(`${ASSETS_PATH}/`)) return undefined;
    return decodeURIComponent(pathname.slice(ASSETS_PATH.length + 1));
  } catch {
    return undefined;
  }
}

/** Deletes an uploaded file by its URL (`DELETE /api/local-upload/delete?file=`). */
export async function deleteUploaded(url: string): Promise<void> {
  const file = storedPathOf(url);
  if (!file) return;
  const res = await fetch(`${deleteUrl}?file=${encodeURIComponent(file)}`, { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) throw new HttpError(`Delete failed (${res.status})`, res.status, await res.json().catch(() => ({})));
}

/** Downloads a file as a blob and saves it under `name` (spec §7: "File download is a GET returning a blob"). */
export async function downloadFile(url: string, name: string): Promise<void> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new HttpError(`Download failed (${res.status})`, res.status, {});
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}
