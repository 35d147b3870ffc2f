/**
 * SQLite: copies the WAL into the database file from a worker thread, so writes seldom wait for it.
 *
 * Why: by default the connection that commits copies the WAL into the database (a checkpoint) once the
 * WAL holds `wal_autocheckpoint` pages, and fsyncs both; that commit, and every write queued behind it
 * on the one connection, waits. Measured here, creates of a top category and its audit entry through the
 * group-commit driver on 20,000 rows, main connection checkpointing at 4,000 pages against this worker
 * (README, Performance): one at a time 1,039–1,149 µs a create against 867–886 µs; 25 at a time
 * 498–517 µs against 429–442 µs.
 *
 * How: a second connection in a worker thread runs a PASSIVE checkpoint every `everyMs`: it copies what
 * is committed and no reader still needs, and takes no lock a writer waits on. The worker runs while
 * there are writes: the first commit starts it, and it stops IDLE_MS after the last. Durability is unchanged:
 * a commit is in the WAL before it is acknowledged, and a checkpoint fsyncs the WAL before it copies and
 * the database after (db/connect.ts). The main connection keeps its own automatic checkpoint, much further
 * off (`FALLBACK_CHECKPOINT_PAGES`), so the WAL stays bounded.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface Checkpointer {
  /**
   * A commit is coming (db/connect.ts calls it from the group-commit driver's `beforeCommit`): starts the
   * worker when none runs, and keeps it from stopping for IDLE_MS.
   */
  wake(): void;
  /** Stops the worker after a last checkpoint and closes its connection. */
  stop(): Promise<void>;
  /** Whether a worker thread runs now, not yet told to stop (tests). */
  readonly running: boolean;
}

/**
 * How long after the last commit the worker stops (after a last checkpoint); the next commit starts it
 * again. A worker thread holds its own V8 heap and connection, about 9 MiB of the process, which a server
 * that writes nothing has no use for (docs/performance.md, "A lean process (issue 54)"). Starting one
 * costs the commit that does it `new Worker`: 0.9 ms of the main thread (median of 15; 0.5 to 17 ms at a
 * load average of 8.8 on these 2 cores), once per quiet spell; meanwhile the WAL only grows, and the main
 * connection's own checkpoint (FALLBACK_CHECKPOINT_PAGES) still bounds it. Short, because an idle server still writes
 * now and then (the support requests' breach sweep runs every minute): with 10 s the worker runs a sixth
 * of such a minute.
 */
export const IDLE_MS = 10_000;

/**
 * How far the main connection lets the WAL grow before it checkpoints itself: 64 MiB of 4 KiB pages.
 * Under a steady stream of commits a worker's checkpoint seldom finds the whole WAL copied (a commit
 * lands while it copies), and only then may the next commit start the WAL again from its beginning; so
 * without this the WAL grows for as long as the writes go on (measured: 394 MiB after 4,000 creates).
 * By the time this one runs the worker has copied nearly all of it, so it is short; and the WAL file
 * stays at most about this size. Kept at SQLite's 4 MiB, or 16 MiB, the main connection did most of the
 * copying itself and the worker gained nothing.
 */
export const FALLBACK_CHECKPOINT_PAGES = 16_000;

// Plain JavaScript (the worker runs no TypeScript loader): open the file, checkpoint on a timer, and on
// 'stop' checkpoint once more, close and say so.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (error) { parentPort.postMessage({ failed: String(error && error.message) }); }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage('stopped');
});
parentPort.postMessage('ready');
`;

/**
 * The checkpointing worker of `file` (a WAL-mode SQLite database): started by the first `wake`, stopped
 * IDLE_MS after the last (`idleMs`), started again by the next.
 */
export function startCheckpointer(file: string, { everyMs = 100, idleMs = IDLE_MS, onFailure = defaultFailure } = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let running: { worker: Worker; exited: Promise<void>; stopping: boolean } | undefined;
  let lastWake = 0;
  let stopped = false;
  /** A worker that failed is not started again before `idleMs` has passed (not a thread at every commit). */
  let failedAt = -Infinity;
  let idleTimer: NodeJS.Timeout | undefined;

  const retire = () => {
    if (!running || running.stopping) return;
    running.stopping = true;
    running.worker.postMessage('stop');
  };
  const start = () => {
    const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
    // A server with nothing else to do may exit: the worker alone keeps nothing alive.
    worker.unref();
    const current = { worker, stopping: false, exited: new Promise<void>((resolve) => worker.once('exit', () => resolve())) };
    running = current;
    worker.on('message', (message) => {
      if (message === 'stopped') void worker.terminate();
      else if (message && typeof message === 'object' && 'failed' in message) onFailure(String(message.failed));
    });
    worker.on('error', (error) => {
      failedAt = performance.now();
      onFailure(`the worker failed: ${error.message}`);
    });
    void current.exited.then(() => {
      if (running === current) running = undefined;
      if (!running) stopIdleTimer();
    });
    if (!idleTimer) {
      idleTimer = setInterval(() => performance.now() - lastWake >= idleMs && retire(), Math.max(10, idleMs / 4));
      idleTimer.unref();
    }
  };
  const stopIdleTimer = () => {
    clearInterval(idleTimer);
    idleTimer = undefined;
  };
  return {
    get running() {
      return !!running && !running.stopping;
    },
    wake() {
      lastWake = performance.now();
      if (stopped || (running && !running.stopping) || lastWake - failedAt < idleMs) return;
      // One stopping meanwhile finishes its last checkpoint; the new one checkpoints from then on.
      try {
        start();
      } catch (error) {
        // Never a reason to fail the commit (beforeCommit): the main connection still checkpoints.
        failedAt = performance.now();
        onFailure(`the worker did not start: ${(error as Error).message}`);
      }
    },
    async stop() {
      stopped = true;
      stopIdleTimer();
      const last = running;
      if (!last) return;
      retire();
      // A worker already gone (it failed) has exited: nothing to wait for.
      await last.exited;
    },
  };
}

// A checkpoint that fails (the disk, a lock) is retried on the next tick; the fallback bounds the WAL.
function defaultFailure(message: string) {
  console.warn(`SQLite checkpoint failed (retried): ${message}`);
}
