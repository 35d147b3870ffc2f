/**
 * A resource declared only for the jobs tests, with the DSL as a manifest would: trials that close at a
 * time (`close`, an `at` job) and a sweep every second (`sweep`, an `every` job). Each run writes what it
 * did to `jobEffects`, the count the tests check; a trial's `mode` makes its run throw, or hold on its
 * first try (so its node can be killed mid-run). Served in process (tests/api/jobs.test.ts) and by child
 * nodes (tests/support/jobs-node-main.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { createRegistry, defineResource, dialog, field, read, type JobContext } from '../../src/manifest/index.ts';
import { HookRefusal } from '../../src/manifest/hooks.ts';
import { registry } from '../../resources/index.ts';

export const EFFECTS = 'jobEffects';
/** What a trial whose mode is `throw` fails with, on every try. */
export const CLOSE_FAILURE = 'The auction house is closed.';
/** What a trial named so is refused with, by its hook, after its row (and its job) were written. */
export const REFUSED = 'Refused';
/** How long a `hold` trial's first try waits: far longer than the test takes to kill its node. */
const HOLD_MS = 120_000;

/** One row per run started (`phase: start`) and per run finished (`end`), with the node that ran it. */
export const jobEffects = defineResource({
  name: EFFECTS,
  label: 'Job effect',
  plural: 'Job effects',
  access: { read: ['admin'], write: [] },
  title: 'job',
  sort: { field: 'id', order: 'ASC' },
  fields: [field.text('job'), field.text('recordId'), field.text('phase'), field.text('node'), field.number('attempt', { storage: 'integer' }), field.text('due')],
});

async function effect(ctx: JobContext, phase: 'start' | 'end') {
  const now = new Date().toISOString();
  await ctx.db
    .insertInto(EFFECTS)
    .values({ id: `${process.pid}-${Math.random().toString(16).slice(2)}`, job: ctx.job, recordId: ctx.record?.id ?? null, phase, node: String(process.pid), attempt: ctx.attempt, due: ctx.due.toISOString(), createdAt: now, updatedAt: now, version: 1 })
    .execute();
}

export const jobTrials = defineResource({
  name: 'jobTrials',
  label: 'Trial',
  plural: 'Trials',
  access: { read: ['admin'], write: ['admin'] },
  fields: [
    field.text('name', { rule: z.string().min(1), list: true }),
    field.text('closesAt', { rule: z.string(), list: true, display: 'datetime' }),
    field.select('mode', ['ok', 'throw', 'hold'], { rule: z.enum(['ok', 'throw', 'hold']), createdWith: 'ok' }),
  ],
  reads: { list: read.list('GET /job-trials') },
  dialogs: {
    createJobTrial: dialog.create({ pick: ['name', 'closesAt', 'mode'], optional: ['mode'], call: 'POST /job-trials', success: 'Trial created.', failure: 'Unable to create trial!' }),
    updateJobTrial: dialog.update({ pick: ['name', 'closesAt'], call: 'PATCH /job-trials/{id}', success: 'Trial updated.', failure: 'Unable to update trial!' }),
    deleteJobTrial: dialog.remove({ call: 'DELETE /job-trials/{id}', missing: 'Trial is missing.', success: 'Trial deleted.' }),
  },
  // Refuses, after the write, a trial named REFUSED: the transaction rolls back the job scheduled with it.
  hooks: {
    afterChange: ({ record }) => {
      if (record.name === REFUSED) throw new HookRefusal(`${REFUSED} by its hook.`);
    },
  },
  jobs: {
    close: {
      at: 'closesAt',
      retries: 2,
      backoff: 1,
      timeout: 3,
      run: async (ctx) => {
        await effect(ctx, 'start');
        if (ctx.record?.mode === 'throw') throw new Error(CLOSE_FAILURE);
        if (ctx.record?.mode === 'hold' && ctx.attempt === 1) await sleep(HOLD_MS);
        await effect(ctx, 'end');
      },
    },
    sweep: { every: 1, run: (ctx) => effect(ctx, 'end') },
  },
});

/** The real resources with the fixture's. */
export const jobsRegistry = createRegistry([...registry.resources, jobTrials, jobEffects]);
