/**
 * The benches' people: accounts written straight into a node's database with a session each (signing
 * hundreds of people in through the rate-limited sign-in would measure the limiter). One password hash
 * serves them all: hashing each would take minutes.
 */
import { createSession } from '../../src/server/auth/sessions.ts';
import { hashPassword } from '../../src/server/auth/password.ts';
import { newId } from '../../src/server/db/id.ts';
import type { Db } from '../../src/server/db/types.ts';
import { allows, dialogAccess, type ResourceDef, type Role } from '../../src/manifest/index.ts';

export interface BenchAccount {
  id: string;
  /** The session's cookie, `sid=<token>`. */
  cookie: string;
}

/** `count` accounts of `role`, named `<label> <i>` (`bench-<tag>-<i>@bench.test`), each signed in. */
export async function benchAccounts(db: Db, count: number, role: string, label: string): Promise<BenchAccount[]> {
  const tag = label.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const passwordHash = await hashPassword(`bench-${Date.now()}`);
  const now = new Date().toISOString();
  const users = Array.from({ length: count }, (_, i) => ({
    id: newId(),
    name: `${label} ${i}`,
    email: `bench-${tag}-${i}@bench.test`,
    role,
    image: '/avatar.png',
    country: 'BD',
    inviteCode: `BENCH-${tag.toUpperCase()}-${i}`,
    passwordHash,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < users.length; i += 200) await db.insertInto('users').values(users.slice(i, i + 200)).execute();
  const out: BenchAccount[] = [];
  for (const user of users) out.push({ id: user.id, cookie: `sid=${(await createSession(db, user.id)).token}` });
  return out;
}

/** The role a bench makes `r`'s creates as: one its create dialog allows (the admin, or, for products, a seller). */
export function creatorOf(r: ResourceDef): Role {
  const create = Object.values(r.dialogs).find((d) => d.kind === 'create');
  const access = create && dialogAccess(r, create);
  return !access || allows(access, 'admin') ? 'admin' : access === 'signedIn' ? 'user' : access[0];
}
