/**
 * Demo data for an empty database: one account per role (`<role>@demo.test`, password `demo1234`),
 * the country table, and (with `catalogue`) a category tree of realistic size and demo site content
 * (./content.ts). Written straight with Kysely, in one transaction.
 */
import { ROLES, type Registry } from '../../manifest/index.ts';
import { slugify } from '../../domain/slug.ts';
import { hashPassword } from '../auth/password.ts';
import { newId } from '../db/id.ts';
import type { Db } from '../db/types.ts';
import { departments, subChildKinds, subKinds } from './category-tree.ts';
import { seedContent, seedCountries } from './content.ts';
import { seedAccountStates } from './account-states.ts';
import { seedPeople } from './people.ts';
import { seedProducts } from './products.ts';
import { seedJobs } from './jobs.ts';

export const DEMO_PASSWORD = 'demo1234';
export const demoEmail = (role: string) => `${role}@demo.test`;

export interface SeedOptions {
  /**
   * Seed the category tree and the demo content too (tests that count rows leave them out). Default
   * true. The countries are reference data: seeded either way.
   */
  catalogue?: boolean;
}

/** Seeds when there are no users yet; answers whether it did. */
export async function seedIfEmpty(db: Db, registry: Registry, options: SeedOptions = {}): Promise<boolean> {
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return false;
  await db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const stamp = { createdAt: now, updatedAt: now };
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await trx
      .insertInto('users')
      .values(
        ROLES.map((role) => ({
          id: newId(),
          name: `Demo ${role[0].toUpperCase()}${role.slice(1)}`,
          email: demoEmail(role),
          role,
          image: '/avatar.png',
          country: 'BD',
          inviteCode: `DEMO-${role.toUpperCase()}`,
          passwordHash,
          ...stamp,
        })),
      )
      .execute();
    await seedCountries(trx, registry, stamp);
    await seedPeople(trx, registry, { stamp, passwordHash, catalogue: options.catalogue !== false });
    await seedAccountStates(trx);
    if (options.catalogue === false) return;
    await seedContent(trx, registry, stamp);
    await seedJobs(trx, stamp, demoEmail('admin'));
    registry.resource('subChildCategories'); // the tree's tables must all be declared
    const rows = { categories: [] as object[], childCategories: [] as object[], subCategories: [] as object[], subChildCategories: [] as object[] };
    // Slugs are made unique by their place in the tree, so the seed never needs the time stamp.
    let order = 0;
    for (const [name, children] of Object.entries(departments)) {
      const category = { id: newId(), name, order: String(++order), slug: slugify(name, { unique: false }), ...stamp };
      rows.categories.push(category);
      for (const childName of children) {
        const child = { id: newId(), name: childName, image: '/logo.jpg', slug: slugify(childName, { unique: false }), category: category.id, ...stamp };
        rows.childCategories.push(child);
        for (const kind of subKinds) {
          const subName = `${kind} ${childName}`;
          const sub = { id: newId(), name: subName, image: '/logo.jpg', slug: slugify(subName, { unique: false }), category: child.id, ...stamp };
          rows.subCategories.push(sub);
          for (const last of subChildKinds) {
            const name4 = `${subName} ${last}`;
            rows.subChildCategories.push({ id: newId(), name: name4, slug: slugify(name4, { unique: false }), category: sub.id, ...stamp });
          }
        }
      }
    }
    for (const [table, values] of Object.entries(rows))
      for (let i = 0; i < values.length; i += 200) await trx.insertInto(table).values(values.slice(i, i + 200)).execute();
    // Products need the tree and the sellers (seedPeople), both in by now.
    await seedProducts(trx, registry, stamp);
  });
  return true;
}
