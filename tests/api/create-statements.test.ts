/**
 * What a product's create sends PostgreSQL (issue 54: "profile the create path"): its statements on the
 * connection that writes it, from its `begin` to its `commit`. One transaction holds the product, its
 * audit entry and the notification to every admin (declared.ts stores it in the write's own transaction,
 * so a create costs one commit, not two); the parents it references, its seller and its four category
 * levels, with the tree's checks, are read in one statement (records/parents.ts), not one each; the slug
 * it generates is not looked up first (writes.ts `freshSlug`); the seller's name the notification gives is
 * read with the parents; the audit entries are written together (audit.ts `withDeferredAudit`). Before:
 * 14 statements in the write, then 1
 * for the notification's labels and 4 in a second transaction. And they reach PostgreSQL without a round
 * trip of their own before the commit: the reads made before the write go down a read line with the other
 * reads of their turn, and the transaction, every statement of which was kept until its commit, goes whole
 * in one write down a write line (postgres/pg-write-behind.ts, pg-pipeline.ts). Before: three writes to
 * the create's own connection (seven before that), each a round trip that woke a backend of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import pg from 'pg';
import { startTestServer, type TestServer } from '../support/server.ts';
import { PIPELINE_NAME, WRITE_PIPELINE_NAME } from '../../src/server/db/postgres/pg-pipeline.ts';
import { account, makeBranch, productBody, type Branch } from './fixtures/catalogue.ts';

const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/** Every statement a pg client sends while `recording`, with the client that sent it and how many writes its socket had made then. */
const sent: { client: object; text: string; writesBefore: number }[] = [];
let recording = false;
const query = pg.Client.prototype.query;
/** Each socket's writes to the kernel while `recording` (a corked socket's messages leave in one). */
const writes = new Map<object, number>();
const socket = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
const { _write, _writev } = socket;

describe.skipIf(!pgUrl)('a product create on PostgreSQL, statement by statement', () => {
  let server: TestServer;
  let branch: Branch;
  let seller: { id: string; cookie: string };
  beforeAll(async () => {
    (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: object, ...args: unknown[]) {
      if (recording) {
        const first = args[0] as string | { text?: string };
        const stream = (this as { connection?: { stream?: object } }).connection?.stream;
        sent.push({ client: this, text: typeof first === 'string' ? first : String(first?.text ?? ''), writesBefore: (stream && writes.get(stream)) ?? 0 });
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    };
    for (const [name, original] of [['_write', _write], ['_writev', _writev]] as const)
      socket[name] = function (this: object, ...args: unknown[]) {
        if (recording) writes.set(this, (writes.get(this) ?? 0) + 1);
        return original.apply(this, args);
      };
    server = await startTestServer({ engine: 'postgres' });
    const admin = await server.login('admin');
    branch = await makeBranch(server, admin);
    seller = await account(server, 'seller', (await account(server, 'dealer')).id);
    // Warm: the statements named and prepared, the caches filled.
    for (let i = 0; i < 3; i++) expect((await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch) })).status).toBe(201);
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    Object.assign(socket, { _write, _writev });
    await server?.close();
  });

  it('reaches PostgreSQL as its reads with the reads of their turn, then its transaction whole in one write down a write line', async () => {
    sent.length = 0;
    writes.clear();
    recording = true;
    const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: 'Pipelined Lamp' }) });
    recording = false;
    expect(res.status).toBe(201);
    type Client = { connection: { stream: object }; connectionParameters: { application_name?: string } };
    const writer = sent.find((s) => /^(\/\* behind \*\/ )?insert into "products"/.test(s.text))?.client as Client | undefined;
    expect(writer).toBeDefined();
    const texts = sent.filter((s) => s.client === writer).map((s) => s.text.replace(/\s+/g, ' ').slice(0, 60)).join('\n');
    // Each write to the socket is a round trip: PostgreSQL's backend woken, the server waiting for its answer.
    expect(writes.get(writer!.connection.stream), texts).toBe(1);
    expect(texts.split('\n')[0]).toBe('begin');
    expect(texts.split('\n').at(-1)).toBe('commit');
    expect(writer!.connectionParameters.application_name).toBe(WRITE_PIPELINE_NAME);
    // Its reads (the site commission, the parents) went down a read line, with whatever else read then.
    const commission = sent.filter((s) => /^select .*from "siteCommissions"/.test(s.text));
    const parents = sent.filter((s) => /^select \(select "id" from "users"/.test(s.text));
    expect([commission.length, parents.length]).toEqual([1, 1]);
    for (const read of [...commission, ...parents]) expect((read.client as Client).connectionParameters.application_name).toBe(PIPELINE_NAME);
    // Both in one write to the line (the parents read ahead of the product's hook, which reads the commission):
    // the same line, and no write of its socket between them.
    expect(parents[0].client).toBe(commission[0].client);
    expect(parents[0].writesBefore).toBe(commission[0].writesBefore);
  });

  it('is one transaction of at most seven statements: the parents and the seller\'s name in one, the slug unread, the audit entries together, the notification to every admin inside it', async () => {
    sent.length = 0;
    recording = true;
    const res = await server.api('POST', '/products', { cookie: seller.cookie, body: productBody(branch, { name: 'Counted Lamp' }) });
    recording = false;
    expect(res.status).toBe(201);
    const writer = sent.find((s) => /^insert into "products"/.test(s.text))?.client;
    expect(writer).toBeDefined();
    const mine = sent.filter((s) => s.client === writer).map((s) => s.text.replace(/\s+/g, ' ').trim());
    const begin = mine.indexOf('begin');
    const commit = mine.indexOf('commit', begin);
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(commit).toBeGreaterThan(begin);
    const write = mine.slice(begin, commit + 1);
    const seen = write.join('\n');
    // The notification to every admin is in the write's transaction, and there is no second one.
    expect(write.some((t) => /^insert into "notifications"/.test(t))).toBe(true);
    expect(mine.filter((t) => t === 'commit')).toHaveLength(1);
    expect(sent.filter((s) => /^insert into "notifications"/.test(s.text))).toHaveLength(1);
    // The parents: one statement reads the seller and every category level (none read alone).
    for (const table of ['users', 'categories', 'childCategories', 'subCategories', 'subChildCategories'])
      expect(write.filter((t) => t.startsWith(`select "${table}".* from "${table}" where "${table}"."id"`)), `${table} read alone:\n${seen}`).toEqual([]);
    // The generated slug is taken unread on a first attempt: its unique index refuses the rare one held.
    expect(write.filter((t) => t.startsWith('select "products".* from "products" where "products"."slug"')), seen).toEqual([]);
    // The seller's name the notification gives is read with the parents, not after the insert.
    expect(write.filter((t) => /^select "id" as "key", "name" as "label" from "users"/.test(t)), seen).toEqual([]);
    // The two audit entries (the product's, the notification's) go in one statement at the end.
    expect(write.filter((t) => t.startsWith('insert into "auditLog"')), seen).toHaveLength(1);
    expect(write.length, seen).toBeLessThanOrEqual(7);
  });
});
