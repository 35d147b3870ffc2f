/**
 * The job board's calls carried out by handlers (declared in resources/jobs.ts):
 *
 * - applying (`PATCH /jobs/{id}/apply`): the application is made through the records service for the
 *   job the path names (the hooks refuse a closed or missing one; `single` a second by the same person);
 * - the search (`GET /jobs/search/?search=`): open jobs whose title holds the text, newest first, as a
 *   list read answers them (its `q` filter, the titles' search index on both engines).
 */
import type { Handlers } from '../../server/routes/handlers.ts';
import { badRequest } from '../../server/errors.ts';
import { JOB_APPLICATIONS, JOBS } from '../../../resources/jobs.ts';

/** The most characters a search may have, and the most jobs it answers. */
const SEARCH_MAX = 100;
const SEARCH_ROWS = 50;

export const jobHandlers = {
  async jobApply(ctx) {
    const created = await ctx.records.create(JOB_APPLICATIONS, { ...ctx.body, job: ctx.params.id });
    ctx.reply.status(201);
    return created;
  },

  async jobSearch(ctx) {
    const given = ctx.query.search;
    const text = typeof given === 'string' ? given.trim() : '';
    if (typeof given !== 'undefined' && typeof given !== 'string') throw badRequest('search must be text.', { search: ['search must be text.'] });
    if (text.length > SEARCH_MAX) throw badRequest(`search must be at most ${SEARCH_MAX} characters.`, { search: [`search must be at most ${SEARCH_MAX} characters.`] });
    const filter = JSON.stringify({ status: 'OPEN', ...(text ? { q: text } : {}) });
    const { rows } = await ctx.records.list(JOBS, { filter, sort: JSON.stringify(['id', 'DESC']), range: JSON.stringify([0, SEARCH_ROWS - 1]) });
    return rows;
  },
} satisfies Handlers;
