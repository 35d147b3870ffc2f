/** The pure parts of declared jobs: the DSL's checks, reading a record's time, the backoff. */
import { describe, expect, it } from 'vitest';
import { defineResource, field, type JobDef } from '../../src/manifest/index.ts';
import { dueTime, runKey } from '../../src/server/records/jobs/schedule.ts';
import { retryDelaySeconds } from '../../src/server/records/jobs/run.ts';

const run = async () => {};
const withJobs = (jobs: Record<string, JobDef>) => () =>
  defineResource({ name: 'auctions', label: 'Auction', plural: 'Auctions', access: { read: ['admin'], write: ['admin'] }, fields: [field.text('name'), field.text('endsAt')], jobs });

describe('declaring jobs', () => {
  it('accepts a job at a declared time field and one every N seconds', () => {
    expect(withJobs({ close: { at: 'endsAt', run }, sweep: { every: 60, retries: 0, backoff: 5, run } })().jobs).toHaveProperty('close.at', 'endsAt');
  });

  it('refuses what could not run, when the manifest loads', () => {
    expect(withJobs({ close: { at: 'endDate', run } })).toThrow(/job 'close' runs at unknown field 'endDate'/);
    expect(withJobs({ both: { at: 'endsAt', every: 5, run } as never })).toThrow(/needs either 'at' or 'every'/);
    expect(withJobs({ neither: { run } as never })).toThrow(/needs either 'at' or 'every'/);
    expect(withJobs({ sweep: { every: 0, run } })).toThrow(/'every' must be a number of seconds above 0/);
    expect(withJobs({ sweep: { every: 5, backoff: 1.5, run } })).toThrow(/'backoff' must be a whole number/);
    expect(withJobs({ sweep: { every: 5, retries: -1, run } })).toThrow(/'retries' must be a whole number/);
    expect(withJobs({ sweep: { every: 5, run: 'sweepAll' as never } })).toThrow(/has no run function/);
    expect(withJobs({ 'close auction': { at: 'endsAt', run } })).toThrow(/a name is letters, digits and underscores/);
  });
});

describe('a record’s time', () => {
  it('reads ISO text, dates and epoch milliseconds; nothing else schedules a run', () => {
    expect(dueTime('2026-12-03T10:00:00.000Z')?.toISOString()).toBe('2026-12-03T10:00:00.000Z');
    expect(dueTime(new Date(0))?.getTime()).toBe(0);
    expect(dueTime(86_400_000)?.toISOString()).toBe('1970-01-02T00:00:00.000Z');
    for (const none of [null, undefined, '', 'next Tuesday']) expect(dueTime(none)).toBeUndefined();
  });

  it('names an occurrence by resource, job and record', () => {
    expect(runKey('auctions', 'close', 'abc')).toBe('auctions.close.abc');
    expect(runKey('auctions', 'sweep')).toBe('auctions.sweep');
  });
});

describe('backoff', () => {
  it('waits the backoff before the first retry and doubles it for each one after', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelaySeconds(10, attempt))).toEqual([10, 20, 40, 80]);
  });
});
