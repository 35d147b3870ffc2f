/**
 * `npm run bench -- --audience [--pg] [--duration S] [--connections N] [--admins 1000]`: whether a write's
 * cost grows with the people it tells (issue 54). A product created by a seller notifies every active
 * admin (resources/products.ts `notify: { to: 'admins' }`). One server node (SQLite, or PostgreSQL with
 * `--pg`) takes the demo seller's creates, N at a time for S seconds, first with one active admin and then
 * with `--admins` of them; each run's creates a second and latency are compared (goal: within 10 %).
 * Then what the admins were told is checked: one notification to the role per product (stored once,
 * src/features/notifications/server/audience.ts), none lost, none twice, and a signed-in admin's unread
 * count holds every one of them.
 *
 * Written into results.json under "audience" (the file's other keys are kept).
 */
import { keepEngineResult, load, machine } from './engine-results.ts';
import { randomBytes } from 'node:crypto';
import { registry } from '../../resources/index.ts';
import { parseCall, urlOf, type Call } from '../../src/manifest/index.ts';
import { connect, type Database } from '../../src/server/db/connect.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { newId } from '../../src/server/db/id.ts';
import { signInAt, startCluster, type Cluster } from '../../tests/support/nodes.ts';
import { demoEmail } from '../../src/server/seed/index.ts';

/** Goal: a create's p50 with many admins within this share of its p50 with one. */
export const AUDIENCE_GOAL_RATIO = 1.1;

export interface AudienceOptions {
  pg: boolean;
  durationS: number;
  connections: number;
  admins: number;
  /** Runs of each audience, in turns. */
  rounds?: number;
  out: string;
  log?: (line: string) => void;
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const round = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);

export async function benchAudience({ pg, durationS, connections, admins, rounds = 2, out, log = console.log }: AudienceOptions): Promise<number> {
  const engine = pg ? 'postgres' : 'sqlite';
  if (pg && !process.env.DATABASE_URL?.startsWith('postgres')) throw new Error('--audience --pg needs DATABASE_URL=postgres://…');
  log(`audience: one node on ${engine}, product creates ${connections} at a time for ${durationS} s, with 1 and with ${admins} active admins; load ${load()}`);
  const loadAtStart = load();
  const failures: string[] = [];
  let cluster: Cluster | undefined;
  let database: Database | undefined;
  try {
    cluster = await startCluster(1, pg ? {} : { databaseUrl: 'sqlite' });
    const url = cluster.nodes[0].url;
    database = await connect(cluster.sqliteFile ? { file: cluster.sqliteFile } : { url: process.env.DATABASE_URL, schema: cluster.schema });
    const db = database.db;
    const seller = await signInAt(url, 'seller');
    const adminCookie = await signInAt(url, 'admin');
    const enhanced = registry.resource('notifications').operations;
    const statsPath = urlOf(parseCall(enhanced.stats.call).path);
    const markAllPath = urlOf(parseCall(enhanced.markAllRead.call).path);
    const create = registry.resource('products').dialogs.createProduct as { call: Call };
    const path = urlOf(parseCall(create.call).path);

    // A whole branch of the demo's category tree, as the product form asks for it (each level's `category` is its parent).
    const leaf = (await db.selectFrom('subChildCategories').select(['id', 'category']).orderBy('id').executeTakeFirstOrThrow()) as { id: string; category: string };
    const sub = (await db.selectFrom('subCategories').select(['id', 'category']).where('id', '=', leaf.category).executeTakeFirstOrThrow()) as { id: string; category: string };
    const child = (await db.selectFrom('childCategories').select(['id', 'category']).where('id', '=', sub.category).executeTakeFirstOrThrow()) as { id: string; category: string };
    const branch = { category: child.category, childCategory: child.id, subCategory: sub.id, subChildCategory: leaf.id };
    let n = 0;
    const body = () => ({ name: `Audience lamp ${randomBytes(4).toString('hex')} ${n++}`, ...branch, images: '/logo.jpg', stock: 10, sellerprice: 100 });

    // One active admin: the demo's (signed in above, to read its count); the others disabled (nobody's audience).
    const first = String((await db.selectFrom('users').select('id').where('email', '=', demoEmail('admin')).executeTakeFirstOrThrow()).id);
    await db.updateTable('users').set({ status: 'DISABLED' }).where('role', '=', 'admin').where('id', '!=', first).execute();

    const activeAdmins = async () =>
      (await db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'admin')
        .where((eb) => eb.or([eb('status', 'is', null), eb('status', '!=', 'DISABLED')]))
        .execute()) as { id: string }[];

    async function run(label: string) {
      const audience = (await activeAdmins()).map((a) => String(a.id));
      const runStarted = new Date().toISOString();
      // The first admin reads its own count from nothing unread, so every product of this run counts.
      await fetch(`${url}${markAllPath}`, { method: 'POST', headers: { cookie: adminCookie, 'content-type': 'application/json' }, body: '{}' });
      const made: string[] = [];
      const ms: number[] = [];
      const refused: string[] = [];
      const deadline = performance.now() + durationS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (performance.now() < deadline) {
            const t0 = performance.now();
            const res = await fetch(`${url}${path}`, { method: 'POST', headers: { cookie: seller, 'content-type': 'application/json' }, body: JSON.stringify(body()) });
            const answer = (await res.json()) as { id?: string };
            ms.push(performance.now() - t0);
            if (res.status === 201 && answer.id) made.push(answer.id);
            else refused.push(`${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      // The admins told of every product once: one row to the role each, counted in an admin's unread.
      const toRole = Number(
        (
          await db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('title', '=', 'Commission to review')
            .where('userId', '=', 'role:admin')
            .where('metadata', 'like', '%"resource":"products"%')
            .where('createdAt', '>=', runStarted)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const unread = ((await (await fetch(`${url}${statsPath}`, { headers: { cookie: adminCookie } })).json()) as { unreadCount: number }).unreadCount;
      if (toRole !== made.length) failures.push(`${label}: ${made.length} products made ${toRole} notifications to the admins`);
      if (unread < made.length) failures.push(`${label}: an admin's unread count is ${unread}, under the ${made.length} products it was told of`);
      ms.sort((a, b) => a - b);
      const result = {
        admins: audience.length,
        creates: made.length,
        perSecond: round(made.length / seconds),
        latencyMs: { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(ms.at(-1) ?? null) },
        toldToRole: toRole,
        anAdminsUnread: unread,
        load: load(),
      };
      log(
        `  ${label}: ${result.perSecond} creates/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms; ` +
          `${toRole} notifications to the admins for ${made.length} products, an admin's unread ${unread}; load ${result.load}`,
      );
      return result;
    }

    // The extra admins, made once (disabled), then switched on and off between runs: 1, N, 1, N…, so
    // both audiences are measured in turns under the same load (the better of each is compared).
    const passwordHash = await hashPassword(`bench-${randomBytes(6).toString('hex')}`);
    const now = new Date().toISOString();
    const more = Array.from({ length: admins - 1 }, (_, i) => ({
      id: newId(),
      name: `Bench Admin ${i}`,
      email: `bench-admin-${i}@bench.test`,
      role: 'admin',
      status: 'DISABLED',
      image: '/avatar.png',
      country: 'BD',
      inviteCode: `BENCH-ADMIN-${i}`,
      passwordHash,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < more.length; i += 200) await db.insertInto('users').values(more.slice(i, i + 200)).execute();
    const extra = (status: string) => db.updateTable('users').set({ status }).where('email', 'like', 'bench-admin-%@bench.test').execute();
    const ones: Awaited<ReturnType<typeof run>>[] = [];
    const manys: Awaited<ReturnType<typeof run>>[] = [];
    for (let round = 1; round <= rounds; round++) {
      await extra('DISABLED');
      ones.push(await run(`1 admin (round ${round})`));
      await extra('ACTIVE');
      manys.push(await run(`${admins} admins (round ${round})`));
    }
    const best = (runs: typeof ones) => runs.reduce((x, y) => ((y.latencyMs.p50 ?? Infinity) < (x.latencyMs.p50 ?? Infinity) ? y : x));
    const one = best(ones);
    const many = best(manys);
    const share = (a: number | null, b: number | null) => (a && b ? Math.round((a / b) * 100) / 100 : null);
    const ratio = share(many.latencyMs.p50, one.latencyMs.p50);
    const rateRatio = share(many.perSecond, one.perSecond);
    const met = ratio !== null && ratio <= AUDIENCE_GOAL_RATIO && !failures.length;
    log(`  ${admins} admins / 1 admin: p50 ${ratio}×, creates a second ${rateRatio}× (goal: p50 within ${Math.round((AUDIENCE_GOAL_RATIO - 1) * 100)} %: ${met ? 'met' : 'MISSED'})`);

    const result = {
      date: new Date().toISOString(),
      machine: machine(),
      engine,
      connections,
      durationS,
      rounds,
      one,
      many,
      runs: { one: ones, many: manys },
      p50Ratio: ratio,
      perSecondRatio: rateRatio,
      goal: { p50RatioAtMost: AUDIENCE_GOAL_RATIO, met },
      failures,
      loadAtStart,
      loadAtEnd: load(),
    };
    return keepEngineResult(out, 'audience', engine, result, log);
  } finally {
    await database?.close();
    await cluster?.close();
  }
}
