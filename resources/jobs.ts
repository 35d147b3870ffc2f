/**
 * The job board (spec §3 Job, Job application; §5 Jobs; §6 "Applying for a job requires a signed-in
 * user"; §7 `/jobs…`; §8 the application's texts; issue 53 point 1).
 *
 * - A job holds what a job board needs, schema.org's JobPosting being the model: title, description,
 *   employment type, pay (in cents, with its currency), location or remote, valid through, who posted it.
 *   Admins post and edit jobs and close them; a closed job, or one past its date, takes no application.
 *   Every signed-in person reads the board (`GET /jobs`, `/jobs/pay`, `/jobs/search/?search=`).
 * - §3's `jobApplication` list (each with its `userId`) is the job's applications as they are, read from
 *   them (`ItemsDef.related`): the board knows who applied without a copy to keep in step.
 * - Applying (applyjob, `PATCH /jobs/{id}/apply`) is the signed-in person's, once per job: `single` makes a
 *   second 409 'You have already applied for this position.' (two at once included), and the dialog
 *   warns 'Already Applied' before it opens when the job's list holds the person already. The CV is a
 *   PDF of at most 5 MB on the private `cvresume` endpoint: the applicant and the admins fetch it, nobody else.
 * - An application moves NEW → REVIEWED → SHORTLISTED → HIRED, or to REJECTED, by an admin, and the
 *   applicant is told; the applicant withdraws it (delteJobApplication, into the recycle bin) and may
 *   then apply again.
 */
import { z } from 'zod';
import { defineResource, dialog, field, operation, read, rules, type NotifyDef } from '../src/manifest/index.ts';
import { computations } from '../src/domain/computed.ts';
import { moneyRule } from './money-rule.ts';
import { JOB_MESSAGES as M, JOB_MESSAGE_MAX } from '../src/features/jobs/contract.ts';
import { jobApplicationHooks, jobHooks } from '../src/features/jobs/hooks.ts';

export const JOBS = 'jobs';
export const JOB_APPLICATIONS = 'jobApplications';

/** schema.org JobPosting's employmentType values. */
export const EMPLOYMENT_TYPES = ['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN'] as const;
export const JOB_STATUSES = ['OPEN', 'CLOSED'] as const;
export const APPLICATION_STATUSES = ['NEW', 'REVIEWED', 'SHORTLISTED', 'REJECTED', 'HIRED'] as const;

/** Who may apply: every signed-in person but the admins, who post the jobs. */
const APPLICANTS = ['user', 'seller', 'dealer', 'agent', 'support'] as const;

/** Pay: optional; when given, more than 0 in whole cents within the money math's bounds. */
const payRule = moneyRule(M.pay, 'Pay').optional();

/** A date and time (ISO text, as the form's picker sends it), or nothing: the job stays open until closed. */
const validThroughRule = z.union([z.literal(''), z.iso.datetime({ offset: true, error: M.validThrough })]).optional();

const jobForm = ['title', 'description', 'employmentType', 'location', 'remote', 'pay', 'currency', 'validThrough'];

export const jobs = defineResource({
  name: JOBS,
  label: 'Job',
  plural: 'Jobs',
  title: 'title',
  access: { read: 'signedIn', write: ['admin'] },
  menu: { group: 'Jobs', icon: 'Work' },
  empty: 'No jobs posted yet',
  // Spec §5/§6: applying is a form of the applications, offered on each open job's row.
  list: { rowDialogs: ['applyjob'] },
  fields: [
    field.text('title', { rule: rules.text(3, M.title, { length: 120, message: M.titleLong }), list: true, searchable: true }),
    field.textarea('description', { rule: rules.text(20, M.description, { length: 5000, message: M.descriptionLong }), maxLength: 5000, sortable: false }),
    field.select('employmentType', EMPLOYMENT_TYPES, {
      label: 'Employment type',
      rule: z.enum(EMPLOYMENT_TYPES, { error: M.employmentType }),
      default: 'FULL_TIME',
      list: true,
      choices: [
        { value: 'FULL_TIME', label: 'Full time' },
        { value: 'PART_TIME', label: 'Part time' },
        { value: 'CONTRACTOR', label: 'Contractor' },
        { value: 'TEMPORARY', label: 'Temporary' },
        { value: 'INTERN', label: 'Internship' },
      ],
    }),
    field.text('location', { rule: rules.text(2, M.location, { length: 120, message: M.locationLong }), list: true }),
    field.boolean('remote', { label: 'Remote', default: false, list: true }),
    field.number('pay', { label: 'Pay', rule: payRule, display: 'money', list: true, hint: 'A year’s pay before tax; leave empty when it is agreed later.' }),
    // The pay in cents, the server's from `pay` (money is cents end to end: src/domain/commission.ts).
    field.number('payCents', { label: 'Pay (cents)', storage: 'integer', readOnly: true, sortable: true, computed: { by: computations.payCents, from: ['pay'] } }),
    field.text('currency', { rule: z.string({ error: M.currency }).regex(/^[A-Z]{3}$/, M.currency), default: 'USD', maxLength: 3, sortable: false }),
    field.text('validThrough', { label: 'Applications until', rule: validThroughRule, display: 'datetime', list: true }),
    field.select('status', JOB_STATUSES, {
      createdWith: 'OPEN',
      readOnly: true,
      list: true,
      choices: [
        { value: 'OPEN', label: 'Open', tone: 'success' },
        { value: 'CLOSED', label: 'Closed', tone: 'default' },
      ],
      states: {
        transitions: [
          { name: 'close', label: 'Close', from: ['OPEN'], to: 'CLOSED', roles: ['admin'], success: 'Job closed.' },
          { name: 'reopen', label: 'Reopen', from: ['CLOSED'], to: 'OPEN', roles: ['admin'], success: 'Job reopened.' },
        ],
      },
    }),
    // Who posted it: set by the server to the admin who did.
    field.reference('postedBy', 'users', { label: 'Posted by', readOnly: true, setOnce: true }),
    // §3: the job's applications, each with its userId, read from them.
    field.items('jobApplication', {
      label: 'Applications',
      readOnly: true,
      related: { resource: JOB_APPLICATIONS, by: 'job' },
      fields: [field.text('id', { label: 'Application' }), field.reference('userId', 'users', { label: 'Applicant' })],
    }),
  ],
  sort: { field: 'id', order: 'DESC' },
  reads: {
    list: read.list('GET /jobs'),
    // §7 `/jobs/pay` (and `?isAdmin=1`, the admin's view of it): the board as pages, as the spec's client reads it.
    pay: read.list('GET /jobs/pay'),
    one: read.one('GET /jobs/{id}', { notFound: M.jobNotFound }),
  },
  dialogs: {
    createJob: dialog.create({ title: 'Post a job', pick: jobForm, optional: ['pay', 'validThrough'], call: 'POST /jobs', success: 'Job posted successfully.', failure: M.createFailed }),
    updateJob: dialog.update({ pick: jobForm, optional: ['pay', 'validThrough'], call: 'PATCH /jobs/{id}', success: 'Job updated successfully.', failure: M.updateFailed }),
    jobPostingDetails: dialog.details({ title: 'Job details', show: ['title', 'description', 'employmentType', 'location', 'remote', 'pay', 'currency', 'validThrough', 'status', 'createdAt'] }),
    deleteJob: dialog.remove({ call: 'DELETE /jobs/{id}/recycle', missing: 'Job is missing.', success: 'Job deleted successfully.', failure: 'Someting went wrong.' }),
  },
  operations: {
    // §7 `GET /jobs/search/?search=`: open jobs whose title holds the text.
    search: operation('GET /jobs/search/', 'jobSearch', { access: 'signedIn' }),
  },
  hooks: jobHooks,
});

/** The applicant is told each step of the review. */
const toApplicant = (status: (typeof APPLICATION_STATUSES)[number], title: string, message: string, type: NotifyDef['type']): NotifyDef => ({
  to: 'owner',
  when: { status },
  title,
  message,
  type,
  category: 'jobs',
});

const reviewNotes: NotifyDef[] = [
  toApplicant('REVIEWED', 'Application reviewed', 'Your application was reviewed.', 'info'),
  toApplicant('SHORTLISTED', 'Application shortlisted', 'Your application was shortlisted.', 'success'),
  toApplicant('REJECTED', 'Application not taken further', 'Your application was not taken further. Thank you for applying.', 'warning'),
  toApplicant('HIRED', 'You are hired', 'Your application was accepted: you are hired.', 'success'),
];

export const jobApplications = defineResource({
  name: JOB_APPLICATIONS,
  label: 'Job application',
  plural: 'Job applications',
  title: 'whatsapp',
  access: {
    read: ['admin', ...APPLICANTS],
    write: ['admin', ...APPLICANTS],
    owner: { field: 'userId', roles: { admin: 'all', user: 'own', seller: 'own', dealer: 'own', agent: 'own', support: 'own' } },
  },
  menu: { group: 'Jobs', icon: 'Assignment' },
  empty: 'No job applications yet',
  fields: [
    field.reference('job', 'jobs', { label: 'Job', readOnly: true, setOnce: true, list: true }),
    field.text('whatsapp', {
      label: 'WhatsApp number',
      rule: z
        .string({ error: M.whatsappShort })
        .trim()
        .min(10, M.whatsappShort)
        .max(15, M.whatsappLong)
        .regex(/^\+?[\d\s-]+$/, M.whatsappInvalid),
      // The storage's bound above the rule's 15: a 16-character number is told the spec's text alone.
      maxLength: 32,
      list: true,
      sortable: false,
    }),
    // Filed under `cvresume`, a private endpoint: served to the applicant and the admins only.
    field.file('cvresume', {
      label: 'CV/Resume',
      rule: rules.webUrl(M.cvresume),
      upload: { endpoint: 'cvresume' },
      sortable: false,
    }),
    field.textarea('message', { rule: rules.text(50, M.messageShort, { length: JOB_MESSAGE_MAX, message: M.messageLong }), maxLength: 1000, counter: JOB_MESSAGE_MAX, sortable: false }),
    field.text('country', { rule: rules.text(2, M.country, { length: 50, message: M.countryLong }), maxLength: 50, list: true }),
    field.select('status', APPLICATION_STATUSES, {
      createdWith: 'NEW',
      readOnly: true,
      list: true,
      choices: [
        { value: 'NEW', label: 'New', tone: 'info' },
        { value: 'REVIEWED', label: 'Reviewed', tone: 'default' },
        { value: 'SHORTLISTED', label: 'Shortlisted', tone: 'warning' },
        { value: 'REJECTED', label: 'Rejected', tone: 'error' },
        { value: 'HIRED', label: 'Hired', tone: 'success' },
      ],
      states: {
        transitions: [
          { name: 'review', label: 'Mark reviewed', from: ['NEW'], to: 'REVIEWED', roles: ['admin'], notify: reviewNotes, success: 'Application marked reviewed.' },
          { name: 'shortlist', label: 'Shortlist', from: ['NEW', 'REVIEWED'], to: 'SHORTLISTED', roles: ['admin'], notify: reviewNotes, success: 'Application shortlisted.' },
          { name: 'reject', label: 'Reject', from: ['NEW', 'REVIEWED', 'SHORTLISTED'], to: 'REJECTED', roles: ['admin'], notify: reviewNotes, success: 'Application rejected.' },
          { name: 'hire', label: 'Hire', from: ['SHORTLISTED'], to: 'HIRED', roles: ['admin'], notify: reviewNotes, success: 'Applicant hired.' },
        ],
      },
    }),
    // The applicant: set by the server to whoever applies.
    field.reference('userId', 'users', { label: 'Applicant', readOnly: true, setOnce: true, list: true }),
  ],
  // One application per job and person (with a unique index beneath): §6 'You have already applied for this position.'
  single: { field: 'job', while: {}, message: M.alreadyApplied },
  sort: { field: 'id', order: 'DESC' },
  reads: {
    // §7: optional dealerId, the applications of the dealer's team.
    list: read.list('GET /jobs/applications', { scope: { field: 'userId', param: 'dealerId', through: 'dealerId' } }),
    one: read.one('GET /jobs/applications/{id}'),
  },
  dialogs: {
    applyjob: dialog.action({
      title: 'Apply for this job',
      pick: ['whatsapp', 'cvresume', 'message', 'country'],
      call: 'PATCH /jobs/{id}/apply',
      handler: 'jobApply',
      on: JOBS,
      submit: 'Submit application',
      access: [...APPLICANTS],
      successTitle: M.submittedTitle,
      success: M.submitted,
      failure: M.failedTitle,
      failureFallback: M.failedFallback,
      already: { field: 'jobApplication', title: M.alreadyTitle, message: M.alreadyApplied },
      notify: { to: 'admins', title: 'New job application', message: 'A new application from {country} waits for review.', type: 'info', category: 'jobs' },
    }),
    applicationDeatils: dialog.details({ title: 'Application details', show: ['job', 'userId', 'whatsapp', 'country', 'message', 'cvresume', 'status', 'createdAt'] }),
    delteJobApplication: dialog.remove({
      title: 'Withdraw application',
      call: 'DELETE /jobs/applications/{id}/recycle',
      missing: 'Job application is missing.',
      success: 'Application withdrawn.',
      failure: 'Someting went wrong.',
    }),
  },
  hooks: jobApplicationHooks,
});
