/** Slots (src/server/slots.ts): what the server's in-flight responses and a read worker's pending pages are held in. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Slots } from '../../src/server/slots.ts';

/** Churns values through a container in a Node of its own (tests/support/slots-churn.ts). */
function churn(container: 'slots' | 'set'): { majors: number; oldGrowthMB: number } {
  const script = join(import.meta.dirname, '..', 'support', 'slots-churn.ts');
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, container], { encoding: 'utf8' }));
}

describe('Slots', () => {
  it('holds each value under a slot of its own until it is taken, once', () => {
    const slots = new Slots<{ n: number }>();
    const a = { n: 1 };
    const b = { n: 2 };
    const sa = slots.add(a);
    const sb = slots.add(b);
    expect(sa).not.toBe(sb);
    expect(slots.size).toBe(2);
    expect(slots.take(sa)).toBe(a);
    expect(slots.take(sa)).toBeUndefined();
    expect(slots.size).toBe(1);
    expect([...slots]).toEqual([b]);
    expect(slots.take(99)).toBeUndefined();
    expect(slots.size).toBe(1);
  });

  it('reuses a slot let go before growing, so it never holds more slots than values ever held at once', () => {
    const slots = new Slots<string>();
    const held = Array.from({ length: 50 }, (_, i) => slots.add(`v${i}`));
    // Many more values pass through than are ever held at once (requests under load).
    for (let round = 0; round < 1000; round++) {
      const i = round % 50;
      expect(slots.take(held[i])).toBe(`v${i}`);
      held[i] = slots.add(`v${i}`);
      expect(held[i]).toBeLessThan(50);
    }
    expect(slots.size).toBe(50);
    expect(new Set(held).size).toBe(50);
    expect([...slots].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `v${i}`).sort());
  });

  it('lets go of everything at once', () => {
    const slots = new Slots<number>();
    for (let i = 1; i <= 3; i++) slots.add(i);
    slots.clear();
    expect(slots.size).toBe(0);
    expect([...slots]).toEqual([]);
    expect(slots.add(7)).toBe(0);
  });

  // What Slots is for (slots.ts): values let go die young even once the container has grown old. The
  // same churn through a Set shows what is measured (V8 keeps the dead values through the Set's old
  // tables until a full collection), so this test can tell the two apart.
  it('lets go of values so that they die young, where a Set keeps them to the old generation', () => {
    const slots = churn('slots');
    expect(slots.majors, 'full collections while churning through Slots').toBe(0);
    expect(slots.oldGrowthMB, 'old generation growth (MB) while churning through Slots').toBeLessThan(5);
    const set = churn('set');
    expect(set.oldGrowthMB, 'the same churn through a Set grows the old generation').toBeGreaterThan(20);
  }, 60_000);
});

