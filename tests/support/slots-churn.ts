/**
 * Run as `node --expose-gc --import tsx tests/support/slots-churn.ts <slots|set>` (tests/unit/slots.test.ts):
 * values go through a container as requests go through a server under load (about 50 held at a time,
 * each let go and another added), the container having first been moved to the old generation, as a
 * pause between requests does. Prints `{"majors":n,"oldGrowthMB":m}`: full collections run meanwhile,
 * and how far the old generation grew. Values let go must die young, so both should stay near 0.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { Slots } from '../../src/server/slots.ts';

const HELD = 50;
const PASSES = 300_000;

/** A container as the server uses one: `add` answers what `take` is later given to let the value go. */
interface Holder {
  add(value: object): unknown;
  take(handle: unknown): void;
}

function setHolder(): Holder {
  const set = new Set<object>();
  return { add: (value) => (set.add(value), value), take: (value) => void set.delete(value as object) };
}

function slotsHolder(): Holder {
  const slots = new Slots<object>();
  return { add: (value) => slots.add(value), take: (slot) => void slots.take(slot as number) };
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const holder = process.argv[2] === 'set' ? setHolder() : slotsHolder();
const request = (i: number) => ({ i, body: new Array(100).fill(i) });
const held = Array.from({ length: HELD }, (_, i) => holder.add(request(i)));
gc();
gc();
let majors = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (((entry as { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
});
observer.observe({ entryTypes: ['gc'] });
const oldUsed = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!.space_used_size;
const start = oldUsed();
let most = start;
for (let i = 0; i < PASSES; i++) {
  holder.take(held[i % HELD]);
  held[i % HELD] = holder.add(request(i));
  if (i % 1000 === 0) most = Math.max(most, oldUsed());
}
// The observer is told of collections after they happen.
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();
console.log(JSON.stringify({ majors, oldGrowthMB: Math.round((most - start) / 2 ** 20) }));
