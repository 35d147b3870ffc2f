/**
 * Demo products (called by `seedIfEmpty` inside its transaction when the catalogue is seeded, after the
 * category tree and the people): a few hundred products spread over the seeded tree, owned by the seeded
 * seller accounts in turn (so `seller@demo.test` and `seller2@demo.test` each own some), commissions
 * pending, approved and rejected; and the site commission record. Every row is what the API would have
 * written: valid by the fields' rules, the main sell price computed by the commission math.
 * Deterministic (a fixed pseudo-random sequence), so screenshots and tests see the same catalogue.
 */
import type { Registry } from '../../manifest/index.ts';
import {
  COMMISSION_FIELDS,
  basisPointsToPercent,
  centsToNumber,
  quoteCommission,
  type CommissionField,
  type CommissionStatus,
} from '../../domain/commission.ts';
import { slugify } from '../../domain/slug.ts';
import { DEFAULT_SITE_COMMISSION, SITE_COMMISSION_NAME } from '../../features/commission/defaults.ts';
import { newId } from '../db/id.ts';
import type { Db, Row } from '../db/types.ts';
import { columnsOf } from '../db/tables.ts';
import type { Stamp } from './content.ts';

/** How many products the demo catalogue has. */
export const DEMO_PRODUCTS = 300;

const BRANDS = ['Nova', 'Aurora', 'Zenith', 'Kestrel', 'Lumen', 'Orchid', 'Summit', 'Harbor', 'Vertex', 'Meadow'];
const LINES = ['Classic', 'Pro', 'Lite', 'Max', 'Plus', 'Eco', 'Prime', 'Mini'];
const REJECT_REASONS = [
  'The site commission is below the marketplace minimum for this category.',
  'The dealer commission does not match the dealer agreement.',
  'Please lower the agent commission: it exceeds the seller price margin.',
];

/** A small deterministic generator (mulberry32): the same catalogue on every first start. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inserts rows into a resource's table in chunks, refusing a key that is not one of its columns. */
async function insert(trx: Db, registry: Registry, table: string, rows: Row[], stamp: Stamp) {
  const columns = new Set(columnsOf(registry.resource(table)).map((c) => c.name));
  const full = rows.map((row) => {
    for (const key of Object.keys(row)) if (!columns.has(key)) throw new Error(`seed: ${table} has no column '${key}'`);
    return { id: newId(), ...row, ...stamp };
  });
  for (let i = 0; i < full.length; i += 100) await trx.insertInto(table).values(full.slice(i, i + 100)).execute();
}

/** Every branch of the seeded tree down to a sub-child category, with its child category's name. */
async function branches(trx: Db) {
  return trx
    .selectFrom('subChildCategories as sc')
    .innerJoin('subCategories as s', 's.id', 'sc.category')
    .innerJoin('childCategories as c', 'c.id', 's.category')
    .select(['sc.id as subChildCategory', 's.id as subCategory', 'c.id as childCategory', 'c.category as category', 'c.name as childName'])
    .orderBy('sc.id')
    .execute();
}

export async function seedProducts(trx: Db, registry: Registry, stamp: Stamp) {
  await insert(trx, registry, 'siteCommissions', [{ name: SITE_COMMISSION_NAME, ...DEFAULT_SITE_COMMISSION }], stamp);
  const sellers = await trx.selectFrom('users').select(['id', 'email']).where('role', '=', 'seller').orderBy('email').execute();
  const tree = await branches(trx);
  if (!sellers.length || !tree.length) return;
  const next = random(20240501);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const rows: Row[] = [];
  for (let i = 0; i < DEMO_PRODUCTS; i++) {
    const branch = tree[Math.floor((i * tree.length) / DEMO_PRODUCTS)];
    const name = `${pick(BRANDS)} ${branch.childName} ${pick(LINES)} ${100 + i}`;
    const sellerPriceCents = 500 + Math.floor(next() * 200_000);
    const status: CommissionStatus = i % 7 === 3 ? 'REJECTED' : i % 5 < 2 ? 'PENDING' : 'APPROVED';
    // Approved commissions are often the admin's own percentages; the rest are the site's.
    const percents = {} as Record<CommissionField, number>;
    for (const field of COMMISSION_FIELDS)
      percents[field] = status === 'APPROVED' && next() < 0.4 ? 100 + Math.floor(next() * 900) : DEFAULT_SITE_COMMISSION[field] * 100;
    const quote = quoteCommission(sellerPriceCents, percents);
    const row: Row = {
      name,
      images: '/logo.jpg',
      // Unique by its number: the seed never needs the time stamp.
      slug: slugify(name, { unique: false }),
      sellerId: sellers[i % sellers.length].id,
      category: branch.category,
      childCategory: branch.childCategory,
      subCategory: branch.subCategory,
      subChildCategory: branch.subChildCategory,
      stock: Math.floor(next() * 200),
      sellerprice: centsToNumber(sellerPriceCents),
      price: centsToNumber(quote.priceCents),
      comissionStatus: status,
      commissionRejectReason: status === 'REJECTED' ? pick(REJECT_REASONS) : null,
    };
    for (const field of COMMISSION_FIELDS) row[field] = basisPointsToPercent(percents[field]);
    rows.push(row);
  }
  await insert(trx, registry, 'products', rows, stamp);
}
