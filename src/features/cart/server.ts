/**
 * A signed-in buyer's cart on the server (issue 52 point 2; the calls are declared in resources/cart.ts):
 *
 * - `GET /api/cart`: the buyer's cart, every price read from the product now (in cents, and through the
 *   one money formatter), a price that changed since the item was added marked `priceChanged`, a
 *   product no longer for sale (deleted, or its commission no longer approved) marked `available: false`
 *   and left out of the totals;
 * - `PUT /api/cart/items/{productId}` `{ quantity }`: sets the product's quantity, adding it when it is
 *   not there (only an existing product whose commission is APPROVED; 400 otherwise);
 * - `DELETE /api/cart/items/{productId}` (404 when not in the cart) and `DELETE /api/cart`;
 * - `POST /api/cart/merge` `{ items }`: a guest's cart from browser storage, merged by the add rule
 *   (src/domain/cart.ts `mergeCarts`: quantities of a product in both are added); items that cannot be
 *   bought are left out and named in `skipped`.
 *
 * Each write answers the cart as `GET` does. Writes go through the records service (`operation`), each
 * in one transaction; a buyer's writes are serialised (SQLite runs one write at a time; on PostgreSQL a
 * transaction lock on the buyer), so the line limit holds under a burst and two writes of one product
 * never make two rows (`cartKey` is unique besides).
 */
import { PostgresAdapter, sql } from 'kysely';
import { CART_ITEMS, CART_MESSAGES, MAX_CART_LINES } from '../../../resources/cart.ts';
import { cartItemOf, cartTotals, lineCents, mergeCarts, priceChange, unitCents, type CartItem } from '../../domain/cart.ts';
import { formatCentsMoney } from '../../domain/commission.ts';
import { badRequest, notFound } from '../../server/errors.ts';
import type { HandlerContext, Handlers } from '../../server/routes/handlers.ts';
import { newId, type Db, type Row } from '../../server/records/index.ts';

const PRODUCTS = 'products';
/** What a cart reads of a product. */
const PRODUCT_COLUMNS = [
  'id', 'name', 'price', 'images', 'slug', 'sellerprice', 'comissionStatus',
  'siteCommission', 'dealerSiteCommission', 'agentSiteCommission', 'ageentFormDealerCommission', 'dealerCommissionFromSeller',
] as const;
/** The §3 fields a row keeps (what the product was when it was added). */
const KEPT_FIELDS = [
  'name', 'price', 'images', 'slug', 'discount', 'agentSiteCommission', 'dealerSiteCommission',
  'agentFormDealerCommission', 'siteCommissin', 'dealerCommissionFromSeller', 'sellerPrice',
] as const;
/** Product ids are 24 hex characters (spec §9); anything else names no product. */
const PRODUCT_ID = /^[0-9a-f]{24}$/i;

/** One item of the cart as the calls answer it. */
export interface CartLine extends CartItem {
  /** False when the product is gone or no longer for sale: shown by its kept fields, left out of the totals. */
  available: boolean;
  /** One unit's price now, in cents and formatted ('$12.50'). */
  priceCents: number | null;
  priceFormatted: string;
  /** The unit price when it was added, and whether the price now differs from it. */
  addedPrice: number;
  addedPriceFormatted: string;
  priceChanged: boolean;
  /** Unit price × quantity, in cents and formatted. */
  lineCents: number | null;
  lineFormatted: string;
}

export interface CartAnswer {
  items: CartLine[];
  totals: { lines: number; quantity: number; totalCents: number | null; total: string };
  /** Some item's price changed since it was added: shown to the buyer before paying. */
  priceChanged: boolean;
}

const cartKey = (userId: string, productId: string) => `${userId}:${productId}`;
const buyerOf = (request: HandlerContext['request']) => String(request.user!.id);

async function productsById(db: Db, ids: string[]): Promise<Map<string, Row>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom(PRODUCTS).select([...PRODUCT_COLUMNS]).where('id', 'in', ids).execute();
  return new Map(rows.map((row: Row) => [String(row.id), row]));
}

const forSale = (product: Row | undefined): product is Row => !!product && product.comissionStatus === 'APPROVED';

/** The product `productId` when it may be put in a cart; 400 naming why not. */
async function productForCart(db: Db, productId: string): Promise<Row> {
  const product = PRODUCT_ID.test(productId) ? (await productsById(db, [productId])).get(productId) : undefined;
  if (!product) throw badRequest(CART_MESSAGES.unknownProduct, { productId: [CART_MESSAGES.unknownProduct] });
  if (!forSale(product)) throw badRequest(CART_MESSAGES.notForSale, { productId: [CART_MESSAGES.notForSale] });
  return product;
}

/** The buyer's rows, in the order they were added. */
const rowsOf = (db: Db, userId: string): Promise<Row[]> =>
  db.selectFrom(CART_ITEMS).selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();

/** Holds the buyer's cart for the rest of the transaction (PostgreSQL; SQLite writes one at a time). */
async function holdCart(trx: Db, userId: string): Promise<void> {
  if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtext(${`cart:${userId}`}))`.execute(trx);
}

/** A stored row as the cart item it keeps (the §3 fields as they were, its quantity). */
function keptItem(row: Row): CartItem {
  const item = { id: String(row.productId), quantity: Number(row.quantity) } as Record<string, unknown>;
  for (const name of KEPT_FIELDS) item[name] = row[name] ?? (name === 'name' || name === 'images' || name === 'slug' ? '' : 0);
  return item as unknown as CartItem;
}

/** The buyer's cart, read now: items with the products' prices now, the totals of those for sale. */
async function cartOf(db: Db, userId: string): Promise<CartAnswer> {
  const rows = await rowsOf(db, userId);
  const products = await productsById(db, rows.map((row) => String(row.productId)));
  const items: CartLine[] = rows.map((row) => {
    const kept = keptItem(row);
    const product = products.get(kept.id);
    const available = forSale(product);
    const item = available ? { ...cartItemOf(product, kept.quantity), discount: kept.discount } : kept;
    const unit = unitCents(item);
    const line = lineCents(item);
    const addedUnit = unitCents(kept);
    return {
      ...item,
      available,
      priceCents: unit ?? null,
      priceFormatted: unit === undefined ? '' : formatCentsMoney(unit),
      addedPrice: kept.price,
      addedPriceFormatted: addedUnit === undefined ? '' : formatCentsMoney(addedUnit),
      priceChanged: available && priceChange(kept, item).changed,
      lineCents: line ?? null,
      lineFormatted: line === undefined ? '' : formatCentsMoney(line),
    };
  });
  const totals = cartTotals(items.filter((x) => x.available));
  return {
    items,
    totals: { ...totals, totalCents: totals.totalCents ?? null },
    priceChanged: items.some((x) => x.priceChanged),
  };
}

/** A new row for `product` at `quantity`, keeping the §3 fields as they are now (its price: `addedPrice` when given). */
function newRow(userId: string, product: Row, quantity: number, addedPrice?: number): Row {
  const item = cartItemOf(product, quantity);
  const now = new Date().toISOString();
  const row: Row = { id: newId(), userId, productId: item.id, cartKey: cartKey(userId, item.id), quantity, createdAt: now, updatedAt: now, version: 1 };
  for (const name of KEPT_FIELDS) row[name] = item[name];
  if (addedPrice !== undefined && unitCents({ price: addedPrice }) !== undefined) row.price = addedPrice;
  return row;
}

const setQuantity = (trx: Db, id: unknown, quantity: number) =>
  trx
    .updateTable(CART_ITEMS)
    .set({ quantity, updatedAt: new Date().toISOString(), version: sql`${sql.ref('version')} + 1` })
    .where('id', '=', String(id))
    .execute();

async function cartRead({ db, request }: HandlerContext): Promise<CartAnswer> {
  return cartOf(db, buyerOf(request));
}

async function cartSetItem({ records, request, params, body }: HandlerContext): Promise<CartAnswer> {
  const userId = buyerOf(request);
  const productId = String(params.productId ?? '');
  const { quantity } = body as { quantity: number };
  return records.operation([CART_ITEMS], async (trx) => {
    await holdCart(trx, userId);
    const product = await productForCart(trx, productId);
    const held = await trx.selectFrom(CART_ITEMS).select(['id']).where('cartKey', '=', cartKey(userId, productId)).executeTakeFirst();
    if (held) await setQuantity(trx, held.id, quantity);
    else {
      const lines = await trx.selectFrom(CART_ITEMS).select((eb) => eb.fn.countAll().as('n')).where('userId', '=', userId).executeTakeFirst();
      if (Number(lines?.n ?? 0) >= MAX_CART_LINES) throw badRequest(CART_MESSAGES.full, { productId: [CART_MESSAGES.full] });
      await trx.insertInto(CART_ITEMS).values(newRow(userId, product, quantity)).execute();
    }
    return cartOf(trx, userId);
  });
}

async function cartRemoveItem({ records, request, params }: HandlerContext): Promise<CartAnswer> {
  const userId = buyerOf(request);
  const productId = String(params.productId ?? '');
  return records.operation([CART_ITEMS], async (trx) => {
    const removed = await trx.deleteFrom(CART_ITEMS).where('cartKey', '=', cartKey(userId, productId)).executeTakeFirst();
    if (!Number(removed.numDeletedRows)) throw notFound(CART_MESSAGES.notInCart);
    return cartOf(trx, userId);
  });
}

async function cartEmpty({ records, request }: HandlerContext): Promise<CartAnswer> {
  const userId = buyerOf(request);
  return records.operation([CART_ITEMS], async (trx) => {
    await trx.deleteFrom(CART_ITEMS).where('userId', '=', userId).execute();
    return cartOf(trx, userId);
  });
}

type GuestItem = { id: string; quantity: number; price?: number };

/**
 * Merges a guest's cart into the buyer's by the add rule (`mergeCarts`), in one transaction. Guest items
 * whose product is unknown or not for sale are skipped and named, as are new products past the line limit.
 */
async function cartMerge({ records, request, body }: HandlerContext): Promise<CartAnswer & { skipped: { id: string; message: string }[] }> {
  const userId = buyerOf(request);
  const guest = (body as { items: GuestItem[] }).items;
  return records.operation([CART_ITEMS], async (trx) => {
    await holdCart(trx, userId);
    const skipped: { id: string; message: string }[] = [];
    const products = await productsById(trx, [...new Set(guest.map((x) => x.id).filter((id) => PRODUCT_ID.test(id)))]);
    const rows = await rowsOf(trx, userId);
    const held = new Map(rows.map((row) => [String(row.productId), row]));
    const buyable: GuestItem[] = [];
    for (const item of guest) {
      const product = products.get(item.id);
      if (!product) skipped.push({ id: item.id, message: CART_MESSAGES.unknownProduct });
      else if (!forSale(product)) skipped.push({ id: item.id, message: CART_MESSAGES.notForSale });
      else buyable.push(item);
    }
    // The quantities the add rule gives, over the buyer's rows and the guest's buyable items.
    const asItems = (items: { id: string; quantity: number }[]) => items.map((x) => ({ ...cartItemOf({ id: x.id }), quantity: x.quantity }));
    const merged = mergeCarts(asItems(rows.map((row) => ({ id: String(row.productId), quantity: Number(row.quantity) }))), asItems(buyable));
    let lines = rows.length;
    for (const item of merged) {
      const row = held.get(item.id);
      if (row) {
        if (Number(row.quantity) !== item.quantity) await setQuantity(trx, row.id, item.quantity);
        continue;
      }
      if (lines >= MAX_CART_LINES) {
        skipped.push({ id: item.id, message: CART_MESSAGES.full });
        continue;
      }
      const addedPrice = buyable.find((x) => x.id === item.id && x.price !== undefined)?.price;
      await trx.insertInto(CART_ITEMS).values(newRow(userId, products.get(item.id)!, item.quantity, addedPrice)).execute();
      lines++;
    }
    return { ...(await cartOf(trx, userId)), skipped };
  });
}

export const cartHandlers = { cartRead, cartSetItem, cartRemoveItem, cartEmpty, cartMerge } satisfies Handlers;
