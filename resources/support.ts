/**
 * Support types and urgency levels (spec §2 createSupportOrHelpType … updateSupportOrHelpUrgency, §3
 * "Support type / urgency", §5 "name at least 1", §7 `/support-panel/manage/types` and `/urgency`,
 * §8 their errors). Admins manage both (§6: "support types and urgency" is an admin function); support
 * staff read them, for the ticket queue; nobody else reads them.
 */
import { z } from 'zod';
import { defineResource, dialog, field, HookRefusal, messages, read, rules, type AfterChangeArgs } from '../src/manifest/index.ts';

const access = { read: ['admin', 'support'], write: ['admin'] } as const;

/** §8: the failure of every support type and urgency dialog. */
const failure = 'Something went wrong... Please Try again later.';

export const supportTypes = defineResource({
  name: 'supportTypes',
  label: 'Support type',
  plural: 'Support types',
  access,
  menu: { group: 'Support', icon: 'Help' },
  empty: 'No support types yet',
  fields: [field.text('name', { rule: rules.text(1, 'Support type name is required!'), list: true, searchable: true, unique: true })],
  reads: {
    list: read.list('GET /support-panel/manage/types'),
    // §7: the update form reads the record with `?isUpdate=1`; the flag asks for nothing the record does
    // not hold (its name), so the answer is the record whether the flag is sent or not.
    one: read.one('GET /support-panel/manage/types/{id}?isUpdate=1', { notFound: 'Unable to fetch single Types' }),
  },
  dialogs: {
    createSupportOrHelpType: dialog.create({
      pick: ['name'],
      call: 'POST /support-panel/manage/types',
      success: 'Support type created successfully.',
      failure,
    }),
    updateSupportOrHelpType: dialog.update({
      pick: ['name'],
      call: 'PUT /support-panel/manage/types/{id}',
      success: 'Support type updated successfully.',
      failure,
    }),
  },
});

/**
 * An urgency level's response targets are whole minutes, not hours: the most urgent levels promise a
 * first reply within minutes (15, 30), which hours could only say as fractions, and the SLA clocks of
 * the ticket queue count time in minutes ("due in 25 min") without rounding. At most a year each.
 */
export const RESPONSE_TARGET_MAX_MINUTES = 525_600;
/** What a level made without targets promises (the spec's create sends a name only): a reply within 4 hours, resolved within a day. */
export const DEFAULT_FIRST_REPLY_MINUTES = 240;
export const DEFAULT_RESOLVE_MINUTES = 1440;

/** A target's rule; a fraction is told '<Label> must be a whole number.' by the integer storage's own check. */
const minutes = (what: string) =>
  z
    .number({ error: `${what} is required!` })
    .positive(`${what} must be more than 0 minutes.`)
    .max(RESPONSE_TARGET_MAX_MINUTES, `${what} can be at most ${RESPONSE_TARGET_MAX_MINUTES} minutes (a year).`);

/** Told under the first-reply target when it is later than the resolve target. */
export const FIRST_REPLY_AFTER_RESOLVE = 'First reply within cannot be more than Resolved within.';

/** The targets of a level as written: a first reply is due no later than the resolution. */
export const responseTargets = z
  .object({ firstReplyMinutes: z.number(), resolveMinutes: z.number() })
  .refine((t) => t.firstReplyMinutes <= t.resolveMinutes, { message: FIRST_REPLY_AFTER_RESOLVE, path: ['firstReplyMinutes'] });

/**
 * Checked on the record as written (a create may leave the targets to their defaults, an update may send
 * one of them): a refusal rolls the write back and answers 400 under the field.
 */
function targetsInOrder({ record }: AfterChangeArgs) {
  const checked = responseTargets.safeParse(record);
  if (checked.success) return;
  const errors: Record<string, string[]> = {};
  for (const issue of checked.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
  throw new HookRefusal(messages.validationFailed, errors);
}

const targets = ['firstReplyMinutes', 'resolveMinutes'] as const;

export const supportUrgencies = defineResource({
  name: 'supportUrgencies',
  label: 'Support urgency',
  plural: 'Support urgency levels',
  access,
  menu: { group: 'Support', icon: 'PriorityHigh' },
  empty: 'No urgency levels yet',
  fields: [
    field.text('name', { rule: rules.text(1, 'Urgency name is required!'), list: true, searchable: true, unique: true }),
    field.number('firstReplyMinutes', {
      label: 'First reply within (minutes)',
      rule: minutes('First reply within'),
      storage: 'integer',
      default: DEFAULT_FIRST_REPLY_MINUTES,
      createdWith: DEFAULT_FIRST_REPLY_MINUTES,
      list: true,
    }),
    field.number('resolveMinutes', {
      label: 'Resolved within (minutes)',
      rule: minutes('Resolved within'),
      storage: 'integer',
      default: DEFAULT_RESOLVE_MINUTES,
      createdWith: DEFAULT_RESOLVE_MINUTES,
      hint: 'Not less than the first reply target.',
      list: true,
    }),
  ],
  // The most urgent first: the shortest promise of a resolution.
  sort: { field: 'resolveMinutes', order: 'ASC' },
  reads: {
    list: read.list('GET /support-panel/manage/urgency'),
    // As the types' one read: `?isUpdate=1` is the spec's form of the same read.
    one: read.one('GET /support-panel/manage/urgency/{id}?isUpdate=1', { notFound: 'Unable to fetch single Urgency' }),
  },
  dialogs: {
    // §7's body is `{ name }`: the targets may be left out (a new level then promises the defaults, a
    // changed one keeps its own).
    createSupportOrHelpUrgency: dialog.create({
      pick: ['name', ...targets],
      optional: targets,
      call: 'POST /support-panel/manage/urgency',
      success: 'Urgency level created successfully.',
      failure,
    }),
    updateSupportOrHelpUrgency: dialog.update({
      pick: ['name', ...targets],
      optional: targets,
      call: 'PUT /support-panel/manage/urgency/{id}',
      success: 'Urgency level updated successfully.',
      failure,
    }),
  },
  hooks: { afterChange: targetsInOrder },
});
