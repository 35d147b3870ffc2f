/**
 * The memory of a bench server process, asked over HTTP: kept apart from measure.ts so the server
 * processes, which answer it, do not load the load generator.
 */

/** Where a bench server process answers its own memory (see child-server.ts). */
export const MEMORY_PATH = '/__bench/memory';

/** A server process's memory, MiB. */
export interface Memory {
  /** Resident set: everything the process holds. */
  rssMB: number;
  /** V8's heap in use: where cached answers live. */
  heapUsedMB: number;
  /** Whether a full garbage collection ran first (the process was started with `--expose-gc`). */
  collected: boolean;
}

/** When a memory sample was taken (`start`, `after sorted`, …) and what it showed. */
export interface MemorySample extends Memory {
  at: string;
}

/** Asks a bench server process (ours or the ceiling) for its memory. */
export async function memoryOf(baseUrl: string, at: string): Promise<MemorySample> {
  const res = await fetch(baseUrl + MEMORY_PATH);
  if (!res.ok) throw new Error(`${baseUrl}${MEMORY_PATH} answered ${res.status}`);
  return { at, ...((await res.json()) as Memory) };
}
