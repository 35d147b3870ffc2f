/**
 * The job board's texts and limits (resources/jobs.ts), shared by the manifest, the server and the
 * client. The spec's own (§5 Jobs, §6, §8) are kept exactly as written.
 */

/** §5/§9: a job application's message is 50 to 500 characters, with a live counter n/500. */
export const JOB_MESSAGE_MAX = 500;

export const JOB_MESSAGES = {
  // §5 Jobs, exactly.
  whatsappShort: 'WhatsApp number must be at least 10 digits',
  whatsappLong: 'WhatsApp number cannot exceed 15 digits',
  whatsappInvalid: 'Please enter a valid phone number',
  cvresume: 'Please upload your CV/Resume',
  messageShort: 'Please write at least 50 characters',
  messageLong: 'Message cannot exceed 500 characters',
  // §5: country 2 to 50 characters (the spec gives no text).
  country: 'Country must be at least 2 characters.',
  countryLong: 'Country must be at most 50 characters.',
  // §6 and §8, exactly.
  alreadyTitle: 'Already Applied',
  alreadyApplied: 'You have already applied for this position.',
  submittedTitle: 'Application Submitted Successfully!',
  submitted: "We'll review your application and get back to you soon.",
  failedTitle: 'Application Failed',
  failedFallback: 'Something went wrong. Please try again.',
  // Ours: the job itself.
  title: 'Job title must be at least 3 characters.',
  titleLong: 'Job title must be at most 120 characters.',
  description: 'Please describe the job in at least 20 characters.',
  descriptionLong: 'The description must be at most 5,000 characters.',
  employmentType: 'Please choose the employment type.',
  location: 'Location must be at least 2 characters.',
  locationLong: 'Location must be at most 120 characters.',
  pay: 'Pay must be more than 0.',
  currency: 'Currency must be a 3-letter code (USD).',
  validThrough: 'Please enter a valid date and time.',
  createFailed: 'Unable to create job!',
  updateFailed: 'Unable to update job!',
  jobNotFound: 'Job not found.',
  closed: 'This job no longer takes applications.',
} as const;

/** Whether a job takes applications at `now`: open, and not past its date. */
export function takesApplications(job: { status?: unknown; validThrough?: unknown }, now = Date.now()): boolean {
  if (job.status !== 'OPEN') return false;
  const until = typeof job.validThrough === 'string' && job.validThrough ? Date.parse(job.validThrough) : NaN;
  return Number.isNaN(until) || until > now;
}
