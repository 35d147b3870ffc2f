/**
 * The job board through the real HTTP API on every engine (issue 53 point 1; resources/jobs.ts): admins
 * post jobs, every signed-in person reads them (`/jobs`, `/jobs/pay`, `/jobs/{id}`, `/jobs/search/`), §5's
 * rules and messages on applying, one application per job and person (two at once make one), a closed or
 * past job takes none, the job's `jobApplication` list, who sees an application and its private CV, the
 * review's declared states with the applicant told, the withdrawal and applying again, the dealer's scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_MESSAGES as M } from '../../src/features/jobs/contract.ts';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { account } from './fixtures/catalogue.ts';

type Account = Awaited<ReturnType<typeof account>>;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const MESSAGE = 'I have run a warehouse shift of twelve people for three years and would love to join.';

describe.each(engines)('job board (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  let buyer: Account;
  let otherBuyer: Account;
  let seller: Account;
  let dealer: Account;
  let teamSeller: Account;
  let cv: string;

  const upload = async (cookie: string, endpoint: string, name: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('endpoint', endpoint);
    form.append('files', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${server.url}/api/s3/upload`, { method: 'POST', headers: { cookie }, body: form });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const post = async (extra: Record<string, unknown> = {}) => {
    const res = await server.api('POST', '/jobs', {
      cookie: admin,
      body: { title: `Picker ${Date.now()}`, description: 'Pick and pack orders in the Dhaka warehouse.', employmentType: 'FULL_TIME', location: 'Dhaka', remote: false, pay: 1234.5, currency: 'USD', ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as Record<string, any>;
  };
  const application = (extra: Record<string, unknown> = {}) => ({ whatsapp: '+880 1711-00000', cvresume: cv, message: MESSAGE, country: 'Bangladesh', ...extra });
  const apply = (who: Account, job: string, body: Record<string, unknown> = application()) => server.api('PATCH', `/jobs/${job}/apply`, { cookie: who.cookie, body });
  const count = async () => Number((await server.db.selectFrom('jobApplications').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
    [buyer, otherBuyer, seller, dealer] = await Promise.all([account(server, 'user'), account(server, 'user'), account(server, 'seller'), account(server, 'dealer')]);
    teamSeller = await account(server, 'seller', dealer.id);
    const sent = await upload(buyer.cookie, 'cvresume', 'cv.pdf', PDF);
    expect(sent.status).toBe(200);
    cv = (sent.body as string[])[0];
  }, 120_000);
  afterAll(() => server?.close());

  it('admins post a job: the poster and the pay in cents are the server’s; others may not post', async () => {
    const job = await post({ pay: 1234.5 });
    expect(job).toMatchObject({ status: 'OPEN', payCents: 123450, jobApplication: [] });
    const me = await server.db.selectFrom('users').select('id').where('email', '=', 'admin@demo.test').executeTakeFirstOrThrow();
    expect(job.postedBy).toBe(me.id);
    const byBuyer = await server.api('POST', '/jobs', { cookie: buyer.cookie, body: { title: 'Mine', description: 'x'.repeat(30), employmentType: 'FULL_TIME', location: 'Dhaka' } });
    expect(byBuyer.status).toBe(403);
    const short = await server.api('POST', '/jobs', { cookie: admin, body: { title: 'A', description: 'short', employmentType: 'NOPE', location: 'D', pay: -1, currency: 'usd' } });
    expect(short.status).toBe(400);
    expect(short.body.errors).toMatchObject({ title: [M.title], description: [M.description], employmentType: [M.employmentType], location: [M.location], currency: [M.currency] });
  });

  it('every signed-in person reads the board; a guest does not', async () => {
    const job = await post({ title: `Night dispatcher ${Date.now()}` });
    for (const cookie of [buyer.cookie, seller.cookie, admin]) {
      const list = await server.api('GET', '/jobs', { cookie, query: { range: [0, 99] } });
      expect(list.status).toBe(200);
      expect(list.body.some((j: { id: string }) => j.id === job.id)).toBe(true);
      expect((await server.api('GET', '/jobs/pay', { cookie, query: { isAdmin: 1 } })).status).toBe(200);
      const one = await server.api('GET', `/jobs/${job.id}`, { cookie });
      expect(one.body).toMatchObject({ id: job.id, title: job.title, jobApplication: [] });
    }
    const guest = await fetch(`${server.url}/api/admin/v1/jobs`);
    expect(guest.status).toBe(401);
    const found = await server.api('GET', '/jobs/search/', { cookie: buyer.cookie, query: { search: 'night DISPATCHER' } });
    expect(found.status).toBe(200);
    expect(found.body.map((j: { id: string }) => j.id)).toContain(job.id);
    const none = await server.api('GET', '/jobs/search/', { cookie: buyer.cookie, query: { search: 'no such job anywhere' } });
    expect(none.body).toEqual([]);
    expect((await server.api('GET', '/jobs/search/', { cookie: buyer.cookie, query: { search: 'x'.repeat(101) } })).status).toBe(400);
    expect((await server.api('GET', `/jobs/${'0'.repeat(24)}`, { cookie: buyer.cookie })).body.message).toBe(M.jobNotFound);
  });

  it('refuses §5 violations with the exact messages, writing nothing', async () => {
    const job = await post();
    const before = await count();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ whatsapp: '123456789' }, 'whatsapp', M.whatsappShort],
      [{ whatsapp: '1234567890123456' }, 'whatsapp', M.whatsappLong],
      [{ whatsapp: 'abcdefghijkl' }, 'whatsapp', M.whatsappInvalid],
      [{ whatsapp: '12345+67890' }, 'whatsapp', M.whatsappInvalid],
      [{ cvresume: '' }, 'cvresume', M.cvresume],
      [{ message: 'x'.repeat(49) }, 'message', M.messageShort],
      [{ message: 'x'.repeat(501) }, 'message', M.messageLong],
      [{ country: 'B' }, 'country', M.country],
      [{ country: 'x'.repeat(51) }, 'country', M.countryLong],
    ];
    for (const [change, fieldName, message] of cases) {
      const res = await apply(buyer, job.id, application(change));
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.errors[fieldName], JSON.stringify(change)).toContain(message);
    }
    const missing = await apply(buyer, job.id, {});
    expect(missing.body.errors).toMatchObject({ whatsapp: [M.whatsappShort], cvresume: [M.cvresume], message: [M.messageShort] });
    // No mass assignment: the status, the applicant and the job are the server's.
    const extra = await apply(buyer, job.id, application({ status: 'HIRED' }));
    expect(extra.status).toBe(400);
    expect(await count()).toBe(before);
    // The bounds themselves are allowed.
    expect((await apply(buyer, job.id, application({ whatsapp: '0123456789', message: 'y'.repeat(500), country: 'BD' }))).status).toBe(201);
  });

  it('one application per job and person: the second is 409 with §6’s text, the job lists its applicant', async () => {
    const job = await post();
    const first = await apply(buyer, job.id);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ job: job.id, userId: buyer.id, status: 'NEW', whatsapp: '+880 1711-00000' });
    const again = await apply(buyer, job.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(M.alreadyApplied);
    const read = await server.api('GET', `/jobs/${job.id}`, { cookie: otherBuyer.cookie });
    expect(read.body.jobApplication).toEqual([{ id: first.body.id, userId: buyer.id }]);
    // Another person may still apply.
    expect((await apply(otherBuyer, job.id)).status).toBe(201);
    const listed = await server.api('GET', '/jobs', { cookie: buyer.cookie, query: { range: [0, 199] } });
    const row = listed.body.find((j: { id: string }) => j.id === job.id);
    expect(row.jobApplication.map((a: { userId: string }) => a.userId).sort()).toEqual([buyer.id, otherBuyer.id].sort());
  });

  it('two applications at once by one person make one', async () => {
    const job = await post();
    const answers = await Promise.all(Array.from({ length: 6 }, () => apply(seller, job.id)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await server.db.selectFrom('jobApplications').select('id').where('job', '=', job.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('a closed job, one past its date and a missing one take no application', async () => {
    const closed = await post();
    expect((await server.api('POST', `/jobs/${closed.id}/transitions/close`, { cookie: admin, body: {} })).status).toBe(200);
    const before = await count();
    const toClosed = await apply(buyer, closed.id);
    expect([toClosed.status, toClosed.body.message]).toEqual([409, M.closed]);
    const past = await post({ validThrough: new Date(Date.now() - 60_000).toISOString() });
    expect((await apply(buyer, past.id)).status).toBe(409);
    expect((await apply(buyer, 'f'.repeat(24))).status).toBe(404);
    expect(await count()).toBe(before);
    // Reopened, it takes them again.
    expect((await server.api('POST', `/jobs/${closed.id}/transitions/reopen`, { cookie: admin, body: {} })).status).toBe(200);
    expect((await apply(buyer, closed.id)).status).toBe(201);
    // Admins post, they do not apply.
    const byAdmin = await server.api('PATCH', `/jobs/${closed.id}/apply`, { cookie: admin, body: application() });
    expect(byAdmin.status).toBe(403);
  });

  it('an application and its CV are the applicant’s and the admins’ only', async () => {
    const job = await post();
    // A CV of its own: a file is served to whoever may read a record holding it.
    const own = (await upload(buyer.cookie, 'cvresume', 'mine.pdf', PDF)).body as string[];
    const cvOfMine = own[0];
    const mine = (await apply(buyer, job.id, application({ cvresume: cvOfMine }))).body;
    const sees = async (cookie: string) => {
      const one = await server.api('GET', `/jobs/applications/${mine.id}`, { cookie });
      const list = await server.api('GET', '/jobs/applications', { cookie, query: { range: [0, 999] } });
      expect(list.status).toBe(200);
      expect(list.body.some((a: { id: string }) => a.id === mine.id)).toBe(one.status === 200);
      return one.status;
    };
    expect(await sees(buyer.cookie)).toBe(200);
    expect(await sees(admin)).toBe(200);
    expect(await sees(otherBuyer.cookie)).toBe(404);
    expect(await sees(seller.cookie)).toBe(404);
    const file = async (cookie?: string) => (await fetch(cvOfMine, { headers: cookie ? { cookie } : {} })).status;
    expect(await file(buyer.cookie)).toBe(200);
    expect(await file(admin)).toBe(200);
    expect(await file(otherBuyer.cookie)).toBe(404);
    expect(await file()).toBe(404);
    // The CV is a PDF: an image is refused by the endpoint.
    expect((await upload(buyer.cookie, 'cvresume', 'cv.png', PNG)).status).toBe(400);
  });

  it('the review moves through its declared states, the applicant told; nobody else moves it', async () => {
    const job = await post();
    const mine = (await apply(otherBuyer, job.id)).body;
    const move = (name: string, cookie = admin) => server.api('POST', `/jobs/applications/${mine.id}/transitions/${name}`, { cookie, body: {} });
    expect((await move('review', otherBuyer.cookie)).status).toBe(403);
    expect((await move('hire')).status).toBe(409);
    for (const step of ['review', 'shortlist', 'hire']) {
      const res = await move(step);
      expect(res.status, `${step} ${JSON.stringify(res.body)}`).toBe(200);
    }
    const told = await server.db.selectFrom('notifications').select('title').where('userId', '=', otherBuyer.id).where('title', 'in', ['Application reviewed', 'Application shortlisted', 'You are hired']).execute();
    expect(told.map((t) => t.title).sort()).toEqual(['Application reviewed', 'Application shortlisted', 'You are hired']);
    // The admins were told of the new application.
    const admins = await server.db.selectFrom('notifications').select('id').where('title', '=', 'New job application').execute();
    expect(admins.length).toBeGreaterThan(0);
  });

  it('the applicant withdraws (recycled) and may apply again; another person cannot withdraw it', async () => {
    const job = await post();
    const mine = (await apply(buyer, job.id)).body;
    expect((await server.api('DELETE', `/jobs/applications/${mine.id}/recycle`, { cookie: otherBuyer.cookie })).status).toBe(404);
    const withdrawn = await server.api('DELETE', `/jobs/applications/${mine.id}/recycle`, { cookie: buyer.cookie });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect((await server.api('GET', `/jobs/${job.id}`, { cookie: buyer.cookie })).body.jobApplication).toEqual([]);
    const again = await apply(buyer, job.id);
    expect(again.status).toBe(201);
    // A job with applications is closed, not deleted (409, saying why); one without goes to the recycle bin.
    const held = await server.api('DELETE', `/jobs/${job.id}/recycle`, { cookie: admin });
    expect(held.status).toBe(409);
    expect(held.body.message).toMatch(/still has 1 job application/);
    const empty = await post();
    expect((await server.api('DELETE', `/jobs/${empty.id}/recycle`, { cookie: admin })).status).toBe(200);
    expect((await server.api('GET', `/jobs/${empty.id}`, { cookie: buyer.cookie })).status).toBe(404);
  });

  it('GET /jobs/applications?dealerId= lists the applications of the dealer’s team', async () => {
    const job = await post();
    const team = (await apply(teamSeller, job.id)).body;
    const outside = (await apply(seller, job.id)).body;
    const scoped = await server.api('GET', '/jobs/applications', { cookie: admin, query: { dealerId: dealer.id, range: [0, 999] } });
    const ids = scoped.body.map((a: { id: string }) => a.id);
    expect(ids).toContain(team.id);
    expect(ids).not.toContain(outside.id);
  });
});
