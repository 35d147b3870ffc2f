/**
 * One upload in flight at a time, with its progress and a Cancel: what the field widget and the
 * gallery's Upload button share. A refused upload toasts the server's answer (and is logged); a
 * cancelled one says nothing. The upload is cancelled if the component goes away.
 */
import { useEffect, useRef, useState } from 'react';
import type { UploadEndpoint } from '../../manifest/index.ts';
import { uploadFiles } from '../providers/upload.ts';
import { useToast, type Toast } from '../shell/toast.tsx';

/** The toast for a failed upload: the server's answer when it refused, else the error's message. */
export function uploadFailure(error: unknown): Toast {
  const body = (error as { body?: { message?: unknown; errors?: Record<string, unknown> } })?.body;
  const listed = Object.values(body?.errors ?? {})
    .flat()
    .filter((m): m is string => typeof m === 'string');
  const message = typeof body?.message === 'string' ? body.message : undefined;
  if (message && listed.length) return { severity: 'error', title: message, description: listed.join('\n') };
  return {
    severity: 'error',
    title: 'Upload failed',
    description: message ?? (error instanceof Error ? error.message : String(error)),
  };
}

export const isAbort = (error: unknown) => (error as { name?: string })?.name === 'AbortError';

export function useUpload(endpoint: UploadEndpoint) {
  const toast = useToast();
  const [progress, setProgress] = useState<number>();
  const inFlight = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => inFlight.current?.abort(), []);

  /** Uploads `files`; answers their URLs, or undefined when the upload failed or was cancelled. */
  async function run(files: File[]): Promise<string[] | undefined> {
    const controller = new AbortController();
    inFlight.current = controller;
    setProgress(0);
    try {
      const urls = await uploadFiles(endpoint, files, setProgress, controller.signal);
      return controller.signal.aborted ? undefined : urls;
    } catch (error) {
      if (!isAbort(error)) {
        console.error('Upload failed', error);
        toast(uploadFailure(error));
      }
      return undefined;
    } finally {
      if (inFlight.current === controller) inFlight.current = undefined;
      setProgress(undefined);
    }
  }

  return {
    /** 0..1 while uploading, undefined otherwise. */
    progress,
    busy: progress !== undefined,
    run,
    cancel: () => inFlight.current?.abort(),
  };
}
