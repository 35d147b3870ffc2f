/**
 * The buyer's shop (issue 52 point 2, the public catalogue) and the search modal's results (issue 53
 * point 5; spec §2 searchModal, §9 "Search types: id and name (default name)"): two public reads over
 * the products whose commission is APPROVED, and nothing else (a pending or rejected product is not
 * for sale, as the cart says: src/features/cart/server.ts).
 *
 * - `GET /api/shop/products?q&category&page&limit`: the catalogue, newest first; `q` a name containing
 *   the text (case-insensitive), `category` a category's id;
 * - `GET /api/shop/search?q&type=id|name`: the search modal's results; `type=id` the product of exactly
 *   that id (0 or 1 row), `type=name` (the default) names containing the text, newest first.
 *
 * Public, like the storefront's sliders (sliders.ts): guests browse the shop and fill
 * a cart in browser storage before signing in. That is safe because an answer holds only what a shop
 * shows (name, image, slug, category, stock, the sell price): never the seller, the seller price or the
 * commission percentages (`shown` picks those fields of each row read).
 *
 * Index-backed on both engines: the name search is the products list's own (src/server/db/search.ts:
 * FTS5 trigrams on SQLite, pg_trgm on PostgreSQL), an id is the primary key, and the status and category
 * conditions have the `(comissionStatus, id)` and `(category, id)` indexes the products manifest's
 * filters make (src/server/db/tables.ts `indexesOf`), which also give the newest-first order.
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import { formatCentsMoney, parseSellPrice } from '../../domain/commission.ts';
import type { Db, Row } from '../db/types.ts';
import { badRequest } from '../errors.ts';
import { list } from '../db/repository.ts';
import type { ListQuery } from '../db/list-query.ts';
import type { ReadCache } from '../db/read-cache.ts';
import { answer } from '../openapi/schemas.ts';
import type { FixedRoute, Parameter } from '../openapi/types.ts';
import {
  SEARCH_TYPES,
  SHOP_LIMITS,
  SHOP_MESSAGES,
  SHOP_PRODUCTS_PATH,
  SHOP_CATEGORIES_PATH,
  MAX_SHOP_CATEGORIES,
  SHOP_SEARCH_PATH,
  type SearchType,
  type ShopAnswer,
  type ShopProduct,
} from '../../features/cart/shop-query.ts';

const PRODUCTS = 'products';
function text(value: unknown, name: string, max: number, message: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max) throw badRequest(message, { [name]: [message] });
  return value;
}

function whole(value: unknown, name: string, fallback: number, max: number, message: string): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1) throw badRequest(message, { [name]: [message] });
  return Math.min(n, max);
}

function shown(row: Row): ShopProduct {
  const cents = parseSellPrice(Number(row.price));
  return {
    id: String(row.id),
    name: String(row.name ?? ''),
    price: Number(row.price ?? 0),
    priceCents: cents.ok ? cents.value : null,
    priceFormatted: cents.ok ? formatCentsMoney(cents.value) : '',
    images: String(row.images ?? ''),
    slug: String(row.slug ?? ''),
    category: String(row.category ?? ''),
    stock: Number(row.stock ?? 0),
  };
}

interface Query {
  q?: string;
  type: SearchType;
  category?: string;
  page: number;
  limit: number;
}

/**
 * The approved products the query names, one page newest first, and how many there are: read as the
 * products list reads a page (repository.ts `list`), so a search's count comes from the trigram index
 * and is kept between writes, and the page is read from whichever index reaches it sooner
 * (search.ts `pageSearchBy`). An exact `countAll` here, on every request and past every cache, held
 * the search modal at a p99 of 2.8 s at 50 connections over 50,000 products (issue 53 point 5).
 */
export async function shopProducts(db: Db, registry: Registry, query: Query, cache?: ReadCache): Promise<ShopAnswer> {
  const r = registry.resource(PRODUCTS);
  const equals: ListQuery['equals'] = { comissionStatus: 'APPROVED' };
  if (query.category) equals.category = query.category;
  if (query.q !== undefined && query.type === 'id') equals.id = query.q;
  const start = (query.page - 1) * query.limit;
  const listed: ListQuery = {
    sort: { field: 'id', order: 'DESC' },
    start,
    end: start + query.limit - 1,
    q: query.type === 'name' ? query.q : undefined,
    equals,
  };
  const { rows, total } = await list(db, r, listed, undefined, cache && { cache, tables: READ_FROM });
  return { data: (rows as Row[]).map(shown), total };
}

/** What a shop answer is read from: a write to it makes a kept answer stale. */
const READ_FROM = [PRODUCTS] as const;

/** The query of either read, checked (400 naming the parameter). */
export function parseShopQuery(raw: Record<string, unknown>, search: boolean): Query {
  const type = raw.type === undefined || raw.type === '' ? 'name' : raw.type;
  if (!search && raw.type !== undefined) throw badRequest(SHOP_MESSAGES.type, { type: [SHOP_MESSAGES.type] });
  if (!(SEARCH_TYPES as readonly unknown[]).includes(type)) throw badRequest(SHOP_MESSAGES.type, { type: [SHOP_MESSAGES.type] });
  const q = text(raw.q, 'q', SHOP_LIMITS.maxQuery, SHOP_MESSAGES.query)?.trim() || undefined;
  return {
    q,
    type: type as SearchType,
    category: search ? undefined : text(raw.category, 'category', 64, SHOP_MESSAGES.category),
    page: whole(raw.page, 'page', 1, SHOP_LIMITS.maxPage, SHOP_MESSAGES.page),
    limit: whole(raw.limit, 'limit', SHOP_LIMITS.limit, SHOP_LIMITS.maxLimit, SHOP_MESSAGES.limit),
  };
}

export function registerShop(app: FastifyInstance, db: Db, registry: Registry) {
  // The category filter's choices: the top level's names (what a guest may see of the tree).
  app.get(SHOP_CATEGORIES_PATH, async () => {
    const rows = await db.selectFrom('categories').select(['id', 'name']).orderBy('name').orderBy('id').limit(MAX_SHOP_CATEGORIES).execute();
    return { data: (rows as Row[]).map((r) => ({ id: String(r.id), name: String(r.name ?? '') })) };
  });
  // Kept between writes to the products, as the lists' answers are (the same for everyone: public),
  // under the query as parsed, never the raw URL.
  const kept = (query: Query) =>
    app.readCache.get(`shop ${query.type} ${query.category ?? ''} ${query.page} ${query.limit} ${query.q ?? ''}`, READ_FROM, () =>
      shopProducts(db, registry, query, app.readCache),
    );
  app.get(SHOP_PRODUCTS_PATH, async (request) => kept(parseShopQuery(request.query as Record<string, unknown>, false)));
  app.get(SHOP_SEARCH_PATH, async (request) => {
    const query = parseShopQuery(request.query as Record<string, unknown>, true);
    // No text, no results: the modal always sends one.
    if (query.q === undefined) return { data: [], total: 0 } satisfies ShopAnswer;
    return kept(query);
  });
}

const product = {
  type: 'object',
  description: 'An approved product as the shop shows it: never its seller, seller price or commission percentages.',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'number', description: 'The sell price of one unit.' },
    priceCents: { type: ['integer', 'null'] },
    priceFormatted: { type: 'string' },
    images: { type: 'string' },
    slug: { type: 'string' },
    category: { type: 'string' },
    stock: { type: 'integer' },
  },
  required: ['id', 'name', 'price', 'priceCents', 'priceFormatted', 'images', 'slug', 'category', 'stock'],
};
const page: Parameter[] = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: SHOP_LIMITS.maxPage, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    description: `At most ${SHOP_LIMITS.maxLimit}; a larger one is lowered to it.`,
    schema: { type: 'integer', minimum: 1, default: SHOP_LIMITS.limit },
  },
];
const found = {
  200: {
    description: 'One page of approved products, newest first, and how many there are.',
    content: {
      'application/json': {
        schema: { type: 'object', properties: { data: { type: 'array', items: product }, total: { type: 'integer' } }, required: ['data', 'total'] },
      },
    },
  },
  400: answer('BadRequest'),
};

/** The shop's two public reads, described for the API document (src/server/openapi/fixed-routes.ts). */
export function shopRoutes(): FixedRoute[] {
  return [
    {
      method: 'get',
      path: SHOP_CATEGORIES_PATH,
      operation: {
        operationId: 'shop.categories',
        summary: 'The shop’s category filter',
        description: `Public (no session): the top-level categories, by name (at most ${MAX_SHOP_CATEGORIES}).`,
        tags: ['Storefront'],
        security: [],
        responses: {
          200: {
            description: 'The categories.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'array',
                      items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'name'] },
                    },
                  },
                  required: ['data'],
                },
              },
            },
          },
        },
      },
    },
    {
      method: 'get',
      path: SHOP_PRODUCTS_PATH,
      operation: {
        operationId: 'shop.products',
        summary: 'The shop’s catalogue of approved products',
        description: 'Public (no session): guests and buyers browse it. A name containing `q`, products of `category`.',
        tags: ['Storefront'],
        security: [],
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string', maxLength: SHOP_LIMITS.maxQuery } },
          { name: 'category', in: 'query', schema: { type: 'string', maxLength: 64 } },
          ...page,
        ],
        responses: found,
      },
    },
    {
      method: 'get',
      path: SHOP_SEARCH_PATH,
      operation: {
        operationId: 'shop.search',
        summary: 'The search modal’s results',
        description: 'Public (no session). `type=id`: the approved product of exactly that id; `type=name` (the default): names containing `q`.',
        tags: ['Storefront'],
        security: [],
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string', maxLength: SHOP_LIMITS.maxQuery } },
          { name: 'type', in: 'query', schema: { enum: [...SEARCH_TYPES], default: 'name' } },
          ...page,
        ],
        responses: found,
      },
    },
  ];
}
