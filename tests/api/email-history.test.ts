/**
 * Email and its history, on every engine this machine has: every email `sendEmail` sends is recorded
 * (`recorded` without an SMTP server, `sent` when a real one took it, `failed` with the reason), the
 * admin reads the history (`GET /email-history` by page, `/email-history/stats`, `/email-history/{id}`),
 * and a one-time password really reaches a local SMTP server while the history keeps it masked.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { closeTransports, MASK, sendEmail } from '../../src/server/email/index.ts';

/** A real SMTP server on a free local port that keeps what it receives (plain SMTP, no login). */
async function startSmtp() {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const smtp = new SMTPServer({ logger: false });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  return port;
}

describe.each(engines)('email history (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const saved = { SMTP_URL: process.env.SMTP_URL, EMAIL_FROM: process.env.EMAIL_FROM };
  const mail = (n: number, kind = 'test') => ({ to: `buyer${n}@demo.test`, subject: `Order ${n}`, text: `Your order ${n} is on its way.`, kind });

  beforeAll(async () => {
    delete process.env.SMTP_URL;
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name];
    else process.env[name] = value;
    closeTransports();
    await server?.close();
  });

  it('records every email, and pages the history as §7 asks (page, newest first)', async () => {
    const empty = await server.api('GET', '/email-history', { cookie: admin });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: [], total: 0, page: 1 });
    for (let n = 1; n <= 5; n++) await sendEmail(server.db, mail(n));
    // The list is never stale after a send (its cached answer is dropped as the email is recorded).
    const first = await server.api('GET', '/email-history', { cookie: admin, query: { page: '1', limit: '2' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 5, page: 1, limit: 2 });
    expect(first.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Order 5', 'Order 4']);
    expect(first.body.data[0]).toMatchObject({ to: 'buyer5@demo.test', kind: 'test', status: 'recorded', error: null, text: 'Your order 5 is on its way.' });
    const third = await server.api('GET', '/email-history', { cookie: admin, query: { page: '3', limit: '2' } });
    expect(third.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Order 1']);
    // The spec's own name for the page size (§7 "GET /email-history (page, pageSize)").
    const bySpec = await server.api('GET', '/email-history', { cookie: admin, query: { page: '2', pageSize: '2' } });
    expect(bySpec.body).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(bySpec.body.data.map((m: { subject: string }) => m.subject)).toEqual(['Order 3', 'Order 2']);
    expect((await server.api('GET', '/email-history', { cookie: admin, query: { pageSize: '0' } })).status).toBe(400);

    const one = await server.api('GET', `/email-history/${first.body.data[1].id}`, { cookie: admin });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ subject: 'Order 4', to: 'buyer4@demo.test' });
    expect((await server.api('GET', '/email-history/0123456789abcdef01234567', { cookie: admin })).status).toBe(404);
    const found = await server.api('GET', '/email-history', { cookie: admin, query: { filter: { q: 'buyer3' } } });
    expect(found.body.data.map((m: { to: string }) => m.to)).toEqual(['buyer3@demo.test']);
  });

  it('counts by status and kind', async () => {
    await sendEmail(server.db, { ...mail(6, 'welcome'), to: 'not an address, other@demo.test' });
    const stats = await server.api('GET', '/email-history/stats', { cookie: admin });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ total: 6, byStatus: { sent: 0, recorded: 5, failed: 1 }, byKind: { test: 5, welcome: 1 }, lastDay: 6 });
    expect(Date.parse(stats.body.lastAt)).toBeGreaterThan(Date.now() - 60_000);
    const failed = await server.api('GET', '/email-history', { cookie: admin, query: { filter: { status: 'failed' } } });
    expect(failed.body.data[0]).toMatchObject({ kind: 'welcome', error: 'Not a single email address.' });
  });

  it('is the admin’s alone, and nobody writes it through the API', async () => {
    for (const role of ['seller', 'dealer', 'agent', 'user', 'support'] as const) {
      const cookie = await server.login(role);
      for (const path of ['/email-history', '/email-history/stats']) expect((await server.api('GET', path, { cookie })).status, `${role} ${path}`).toBe(403);
    }
    expect((await server.api('GET', '/email-history')).status).toBe(401);
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const res = await server.api(method, '/email-history', { cookie: admin, body: { to: 'x@demo.test' } });
      expect(res.status, method).toBe(404);
    }
  });

  it('hands a one-time password to a real SMTP server, and keeps it masked in the history', async () => {
    const smtp = await startSmtp();
    process.env.SMTP_URL = smtp.url;
    process.env.EMAIL_FROM = 'Marketplace <no-reply@shop.test>';
    try {
      const seller = await server.db.selectFrom('users').select('id').where('email', '=', 'seller@demo.test').executeTakeFirstOrThrow();
      const issued = await server.api('POST', `/users/${seller.id}/one-time-password`, { cookie: admin });
      expect(issued.status).toBe(200);
      const otp: string = issued.body.password;

      expect(smtp.received).toHaveLength(1);
      const [delivered] = smtp.received;
      expect(delivered.to).toEqual(['seller@demo.test']);
      expect(delivered.from).toBe('no-reply@shop.test');
      expect(delivered.raw).toMatch(/^Subject: Your one-time password$/m);
      expect(delivered.raw).toContain(otp);

      const history = await server.api('GET', '/email-history', { cookie: admin, query: { filter: { kind: 'one-time-password' } } });
      expect(history.body.data[0]).toMatchObject({ to: 'seller@demo.test', status: 'sent', error: null });
      expect(history.body.data[0].text).toContain(MASK);
      expect(JSON.stringify(history.body)).not.toContain(otp);
    } finally {
      delete process.env.SMTP_URL;
      await smtp.close();
    }
  });

  it('records a mail server that cannot be reached as failed, and the call still succeeds', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${await closedPort()}`;
    try {
      const user = await server.db.selectFrom('users').select('id').where('email', '=', 'user@demo.test').executeTakeFirstOrThrow();
      const issued = await server.api('POST', `/users/${user.id}/one-time-password`, { cookie: admin });
      expect(issued.status).toBe(200);
      const history = await server.api('GET', '/email-history', { cookie: admin, query: { filter: { to: 'user@demo.test' } } });
      expect(history.body.data[0]).toMatchObject({ status: 'failed', kind: 'one-time-password' });
      expect(history.body.data[0].error).toMatch(/ECONNREFUSED|connect/i);
      expect(JSON.stringify(history.body)).not.toContain(issued.body.password);
    } finally {
      delete process.env.SMTP_URL;
    }
  });
});
