/**
 * CPU time a measured run cost, per answered request: the server's process (with its threads and any
 * processes it started), the database's (PostgreSQL's processes, which answer ours' reads in processes
 * of their own), and the load generator's (this process: autocannon).
 *
 * Why: on a machine whose cores the load generator, the server and the database share, req/s moves with
 * everything else running (the ceiling answered 12,000 to 57,000 req/s on the same route on different
 * days), while the CPU a request costs moves far less, and says where the time went: a server at 0.3×
 * the ceiling that spends 160 µs a page against the ceiling's 47, plus 85 µs in PostgreSQL, cannot be
 * brought to 0.5× by the load generator's share alone.
 *
 * Read from /proc (Linux): user and system time of each process, in clock ticks. Elsewhere nothing is
 * measured and the reports leave the figures out. PostgreSQL's processes are all of this machine's
 * (`postgres` by command line): another client of the same server in the meantime is counted too.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** CPU per answered request, µs. */
export interface CpuPerRequest {
  /** The server's process and its descendants. */
  server: number;
  /** PostgreSQL's processes, when the server under test reads from it. */
  database?: number;
  /** This process alone (the load generator), not the servers it started. */
  loadGenerator: number;
}

/** Clock ticks a second (`getconf CLK_TCK`; 100 on Linux as built almost everywhere). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

const available = (() => {
  try {
    readFileSync('/proc/self/stat', 'utf8');
    return true;
  } catch {
    return false;
  }
})();

/** pid, parent pid and CPU ticks (user + system) of one process; undefined once it is gone. */
function statOf(pid: string): { pid: number; ppid: number; ticks: number } | undefined {
  try {
    // The command name (2nd field) may hold spaces and parentheses: the fields after its last ')' are fixed.
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

const processes = () => readdirSync('/proc').filter((name) => /^\d+$/.test(name));

/** CPU ticks used by `root` and every process under it. */
function treeTicks(root: number): number {
  const all = processes().map(statOf).filter((s) => s !== undefined);
  const children = new Map<number, number[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const ticks = new Map(all.map((s) => [s.pid, s.ticks]));
  let sum = 0;
  for (const queue = [root]; queue.length; ) {
    const pid = queue.pop()!;
    sum += ticks.get(pid) ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return sum;
}

/** CPU ticks used by PostgreSQL's processes (their command line starts with `postgres`). */
function databaseTicks(): number {
  let sum = 0;
  for (const pid of processes()) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (command.startsWith('postgres')) sum += statOf(pid)?.ticks ?? 0;
  }
  return sum;
}

/** What is sampled before and after a run. */
export interface CpuWatch {
  /** The server's pid. */
  pid: number;
  /** Whether PostgreSQL's processes are counted too (the server reads from PostgreSQL). */
  database: boolean;
}

/**
 * Starts counting for `watch`; the function it answers gives the CPU per request of the `requests`
 * answered since. Undefined where /proc is not there to read.
 */
export function startCpu(watch: CpuWatch): ((requests: number) => CpuPerRequest | undefined) | undefined {
  if (!available) return undefined;
  // This process alone: the servers are its children, counted as servers.
  const selfTicks = () => statOf(String(process.pid))?.ticks ?? 0;
  const before = { server: treeTicks(watch.pid), database: watch.database ? databaseTicks() : 0, self: selfTicks() };
  return (requests) => {
    if (requests <= 0) return undefined;
    const perRequest = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / requests) * 1e6 * 10) / 10;
    return {
      server: perRequest(treeTicks(watch.pid) - before.server),
      ...(watch.database ? { database: perRequest(databaseTicks() - before.database) } : {}),
      loadGenerator: perRequest(selfTicks() - before.self),
    };
  };
}
