/**
 * The job board's hooks (resources/jobs.ts): client-safe (manifests load in the browser), so nothing here
 * imports server code; reads come in the context.
 *
 * - A job records who posted it.
 * - An application is made for a job that exists and takes applications (open, not past its date):
 *   another answers 404 or 409, nothing written. Its job never moves.
 */
import { HookRefusal, type BeforeChangeArgs, type ResourceHooks } from '../../manifest/hooks.ts';
import { JOB_MESSAGES as M, takesApplications } from './contract.ts';

export const jobHooks: ResourceHooks = {
  beforeChange({ data, operation, actor }: BeforeChangeArgs) {
    return operation === 'create' && actor.id ? { ...data, postedBy: actor.id } : data;
  },
};

export const jobApplicationHooks: ResourceHooks = {
  async beforeChange({ data, operation, find }: BeforeChangeArgs) {
    if (operation !== 'create') return data;
    const job = typeof data.job === 'string' ? await find('jobs', 'id', data.job) : undefined;
    if (!job) throw new HookRefusal(M.jobNotFound, undefined, 404);
    if (!takesApplications(job)) throw new HookRefusal(M.closed, undefined, 409);
    return data;
  },
};
