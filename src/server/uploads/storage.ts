/**
 * Where uploaded files live. Paths are the server's own `<endpoint>/<24 hex>.<type>` names (see
 * paths.ts); nothing a request says reaches a storage unchecked.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { insideRoot } from './paths.ts';

export interface StoredFile {
  stream: Readable;
  /** Bytes, when the storage knows them up front. */
  size?: number;
}

export interface Storage {
  /** Stores `bytes` under `path`, replacing nothing: the server never reuses a name. */
  put(path: string, bytes: Uint8Array, mime: string): Promise<void>;
  /** Removes a stored file; a file already gone is no error. */
  remove(path: string): Promise<void>;
  /** The stored file's bytes, or undefined when there is none. */
  read(path: string): Promise<StoredFile | undefined>;
  /**
   * Where clients fetch the file when the storage serves it itself (an S3 public URL). Undefined means
   * the app serves it under ASSETS_PATH.
   */
  url(path: string): string | undefined;
  /** Where the files are, for logs and tests: a folder, or a bucket URL. */
  readonly location: string;
}

/** Files in a folder on this machine (default `data/uploads`, beside the SQLite file). */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  get location() {
    return this.root;
  }

  async put(path: string, bytes: Uint8Array) {
    const full = insideRoot(this.root, path);
    await mkdir(dirname(full), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file, and `wx` never overwrites.
    const partial = `${full}.${process.pid}.partial`;
    await writeFile(partial, bytes, { flag: 'wx' });
    try {
      await rename(partial, full);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async remove(path: string) {
    await rm(insideRoot(this.root, path), { force: true });
  }

  async read(path: string): Promise<StoredFile | undefined> {
    const full = insideRoot(this.root, path);
    try {
      const info = await stat(full);
      if (!info.isFile()) return undefined;
      return { stream: createReadStream(full), size: info.size };
    } catch {
      return undefined;
    }
  }

  url(): undefined {
    return undefined;
  }
}
