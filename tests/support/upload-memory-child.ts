/**
 * A test server in a process of its own, so its memory can be measured without the test runner's:
 * it starts (SQLite, the upload quota from UPLOAD_QUOTA_BYTES), tells its parent its URL and a seller's
 * session over IPC, and answers `measure` messages with its resident set size now and at its highest
 * since the last `mark` (sampled every few milliseconds).
 */
import { startTestServer } from './server.ts';

const server = await startTestServer({ app: { uploadLimits: { quotaBytes: Number(process.env.UPLOAD_QUOTA_BYTES), perMinute: 1000 } } });
const seller = await server.login('seller');

let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
setInterval(sample, 2);

type Message = { kind: 'mark' } | { kind: 'measure' };
// The parent kills this process when it is done: its database and uploads are in the parent's temporary folder.
process.on('message', (message: Message) => {
  if (message.kind === 'mark') {
    // What memory freed garbage leaves, so the baseline is the server at rest.
    globalThis.gc?.();
    peak = 0;
    sample();
    process.send!({ kind: 'marked', rss: process.memoryUsage.rss() });
  } else if (message.kind === 'measure') {
    sample();
    const highest = peak;
    globalThis.gc?.();
    process.send!({ kind: 'measured', peak: highest, rss: process.memoryUsage.rss() });
  }
});

process.send!({ kind: 'ready', url: server.url, seller });
