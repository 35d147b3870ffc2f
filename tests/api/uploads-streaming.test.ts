/**
 * Uploads are streamed, never held (issue 50 part 6): a server in a child process takes ten parallel
 * 25 MB uploads by one user and its resident memory grows by less than 100 MiB (measured in the child);
 * an upload over the quota is refused from its Content-Length before its body is read, or while its
 * files arrive when it declares no length; no temporary file outlives its upload. SQLite only: the
 * engine holds the uploads' rows, not their bytes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitMessages } from '../../src/server/uploads/limits.ts';
import { boundaryOf, framingBytes } from '../../src/server/uploads/receive.ts';

const MiB = 1024 * 1024;
const QUOTA = 200 * MiB;
/** One file of 5 MB (under the 5 MiB a file may have) that sniffs as a PNG. */
const FILE = Buffer.alloc(5_000_000);
FILE.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Body {
  type: string;
  chunks: Buffer[];
  length: number;
}

/** A multipart body: the endpoint, then the files (the same bytes each time: the test process holds one copy). */
function multipart(endpoint: string, count: number): Body {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const chunks = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="endpoint"\r\n\r\n${endpoint}\r\n`)];
  for (let i = 0; i < count; i++) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${i}.png"\r\nContent-Type: image/png\r\n\r\n`));
    chunks.push(FILE, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { type: `multipart/form-data; boundary=${boundary}`, chunks, length: chunks.reduce((n, c) => n + c.length, 0) };
}

interface Answer {
  /** The answer's status, or 'reset' when the connection was closed on the body still being sent before the answer was read. */
  status: number | 'reset';
  body: any;
  /** Bytes of the body written when the answer arrived. */
  sentWhenAnswered: number;
}

/**
 * POSTs `body` in 64 KiB writes, honouring backpressure; `declare: false` sends it chunked, without a
 * Content-Length; `stopAt` stops writing after exactly that many bytes and waits for the answer. The
 * answer may come before the body is all sent (a refusal): writing stops then. A refusal closes the
 * connection, and a client still writing then may get a reset instead of the answer (`'reset'`): only
 * a client that stopped writing, as `stopAt` does, is sure to read it.
 */
function send(url: string, cookie: string, body: Body, { declare = true, stopAt = Infinity } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${url}/api/s3/upload`, {
      method: 'POST',
      headers: { cookie, 'content-type': body.type, ...(declare ? { 'content-length': String(body.length) } : {}) },
    });
    req.setMaxListeners(0);
    req.on('response', (res) => {
      answered = true;
      const at = sent;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString() || 'null'), sentWhenAnswered: at }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: 'reset', body: undefined, sentWhenAnswered: sent });
      else reject(error);
    });
    (async () => {
      for (const chunk of body.chunks) {
        for (let at = 0; at < chunk.length && !answered && !req.destroyed && sent < stopAt; ) {
          const piece = chunk.subarray(at, at + Math.min(64 * 1024, stopAt - sent));
          at += piece.length;
          sent += piece.length;
          if (!req.write(piece)) await new Promise<void>((r) => req.once('drain', r).once('close', r));
        }
      }
      if (!answered && !req.destroyed && sent < stopAt) req.end();
      // Headers only: they go out with the first write or the end, neither of which comes.
      else if (sent === 0) req.flushHeaders();
    })().catch(() => {});
  });
}

describe('uploads streamed to disk (child process server)', () => {
  let child: ChildProcess;
  let url: string;
  let seller: string;
  const temp = mkdtempSync(join(tmpdir(), 'marketplace-upload-tmp-'));
  const messages: any[] = [];
  const next = (kind: string) =>
    new Promise<any>((resolve, reject) => {
      const look = () => {
        const i = messages.findIndex((m) => m.kind === kind);
        if (i >= 0) return resolve(messages.splice(i, 1)[0]);
        if (child.exitCode !== null) return reject(new Error(`the server exited (${child.exitCode})`));
        setTimeout(look, 10);
      };
      look();
    });
  const temporaryFiles = () => readdirSync(temp, { recursive: true }).filter((p) => String(p).startsWith('marketplace-upload-'));

  beforeAll(async () => {
    child = fork(join(import.meta.dirname, '../support/upload-memory-child.ts'), [], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      // The child's temporary files go to a folder of this test's, so the test sees them all.
      env: { ...process.env, UPLOAD_QUOTA_BYTES: String(QUOTA), TMPDIR: temp },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (m) => messages.push(m));
    ({ url, seller } = await next('ready'));
  }, 120_000);
  afterAll(async () => {
    // Killed, not closed: a connection the server still holds open (a failing run) must not hold the test up.
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(temp, { recursive: true, force: true });
  });

  it('takes ten parallel 25 MB uploads of one user within 100 MiB of memory; those over the quota are refused before their bodies', async () => {
    // A first upload loads what uploading needs (the multipart parser, the statements) before the baseline.
    expect((await send(url, seller, multipart('profilepics', 1))).status).toBe(200);
    child.send({ kind: 'mark' });
    const { rss: before } = await next('marked');

    const bodies = Array.from({ length: 10 }, () => multipart('profilepics', 5));
    const answers = await Promise.all(bodies.map((body) => send(url, seller, body)));
    child.send({ kind: 'measure' });
    const { peak, rss: after } = await next('measured');
    console.info(`RSS: ${(before / MiB).toFixed(0)} MiB before, ${(peak / MiB).toFixed(0)} MiB at the highest, ${(after / MiB).toFixed(0)} MiB after`);

    expect(peak - before).toBeLessThan(100 * MiB);
    expect(after - before).toBeLessThan(100 * MiB);
    // 200 MiB hold the first 5 MB and eight 25 MB uploads, not a ninth; the two others are refused
    // before their bodies are read (a reset when the refusal closed the connection on them still sending).
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
    expect(answers.filter((a) => a.status !== 200).map((a) => (a.status === 'reset' ? 413 : a.status))).toEqual([413, 413]);
    for (const refused of answers.filter((a) => a.status === 413)) {
      // Judged by what the body's length promises, before any of it was read.
      expect(refused.body.errors.files[0]).toMatch(/^This upload sends 24 MB, but only .* of your 200 MB upload quota is left\.$/);
    }
    expect(temporaryFiles()).toEqual([]);
  }, 300_000);

  it('refuses an upload without a Content-Length while its files arrive, once they pass the quota', async () => {
    // 200 MiB - 205 MB = 4.4 MiB left; the body may carry its framing's worth more before it is judged.
    const body = multipart('profilepics', 5);
    const left = QUOTA - 41 * FILE.length;
    const judgedAt = left + framingBytes(boundaryOf(body.type).length) + 1;
    // Sent up to the first byte of the first file past that, and no further: the rest never comes.
    const answer = await send(url, seller, body, { declare: false, stopAt: body.chunks[0].length + body.chunks[1].length + judgedAt });
    expect(answer.status).toBe(413);
    expect(answer.body.message).toBe(limitMessages.quotaTitle);
    expect(answer.body.errors.files[0]).toMatch(/^These files take more than .* but only 4.4 MB of your 200 MB upload quota is left\.$/);
    expect(temporaryFiles()).toEqual([]);
  }, 120_000);

  it('answers an upload whose Content-Length is over the quota without waiting for its body', async () => {
    // Only the headers are sent: an answer can only come from the declared length.
    const body = multipart('profilepics', 5);
    const answer = await send(url, seller, body, { stopAt: 0 });
    expect(answer.status).toBe(413);
    expect(answer.sentWhenAnswered).toBe(0);
    expect(answer.body.errors.files[0]).toMatch(/^This upload sends 24 MB, but only 4.4 MB of your 200 MB upload quota is left\.$/);
  }, 60_000);
});
