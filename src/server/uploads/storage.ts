/**
 * Where uploaded files live. Paths are the server's own `<endpoint>/<24 hex>.<type>` names (see
 * paths.ts); nothing a request says reaches a storage unchecked.
 */
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, open, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
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
  /**
   * Stores the file at `file` (a temporary file of an upload) under `path` without reading it into
   * memory. Optional: the upload route reads the file and calls `put` for a storage without it.
   */
  putFile?(path: string, file: string, mime: string): Promise<void>;
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

/**
 * Whether any part of `path` (relative to `root`) that exists is a symbolic link. The server never makes
 * one, so one found in the uploads folder was put there to reach a file outside it (`/etc/passwd`, the
 * database): nothing is read, written or removed through it. (The root itself may be a link: that is
 * the operator's choice of where uploads live.)
 */
async function throughSymlink(root: string, path: string): Promise<boolean> {
  let at = root;
  for (const part of path.split('/')) {
    at = join(at, part);
    try {
      if ((await lstat(at)).isSymbolicLink()) return true;
    } catch {
      return false; // the rest does not exist yet
    }
  }
  return false;
}

/** Files in a folder on this machine (default `data/uploads`, beside the SQLite file). */
export class LocalStorage implements Storage {
  constructor(readonly root: string) {}

  get location() {
    return this.root;
  }

  async put(path: string, bytes: Uint8Array) {
    await this.place(path, (partial) => writeFile(partial, bytes, { flag: 'wx' }));
  }

  async putFile(path: string, file: string) {
    // Copied by the kernel, never through this process's memory; COPYFILE_EXCL never overwrites.
    await this.place(path, (partial) => copyFile(file, partial, constants.COPYFILE_EXCL));
  }

  /** Writes a new file at `path` through `write(partial)`: aside first, then renamed into place. */
  private async place(path: string, write: (partial: string) => Promise<void>) {
    const full = insideRoot(this.root, path);
    if (await throughSymlink(this.root, path)) throw new Error(`Path '${path}' goes through a symbolic link`);
    await mkdir(dirname(full), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${full}.${process.pid}.partial`;
    try {
      await write(partial);
      await rename(partial, full);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async remove(path: string) {
    const full = insideRoot(this.root, path);
    // A link in place of the endpoint's folder would make this remove a file elsewhere: what lies
    // behind it is not ours, so for this storage the file is already gone.
    if (await throughSymlink(this.root, dirname(path))) return;
    await rm(full, { force: true });
  }

  /** A regular file reached without any symbolic link, whose real path is under the root; else undefined. */
  async read(path: string): Promise<StoredFile | undefined> {
    const full = insideRoot(this.root, path);
    try {
      if (await throughSymlink(this.root, path)) return undefined;
      if (!(await realpath(full)).startsWith((await realpath(this.root)) + sep)) return undefined;
      // O_NOFOLLOW: a link swapped in after the checks is not followed either.
      const handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW);
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return undefined;
      }
      return { stream: handle.createReadStream(), size: info.size };
    } catch {
      return undefined;
    }
  }

  url(): undefined {
    return undefined;
  }
}
