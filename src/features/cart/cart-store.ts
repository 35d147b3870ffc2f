/**
 * The cart in the browser (issue 52 point 2, client half): one store for the cart badge, the shop's
 * "Add to cart" and the cart page.
 *
 * - A guest's cart (and a signed-in buyer's before its server cart is read) lives in localStorage
 *   (`GUEST_CART_KEY`), changed by §4's rules (src/domain/cart.ts) and kept at once, so a reload or
 *   another tab keeps it. Its prices are the ones the product had when added; the cart page asks the
 *   shop for each product's price now (`refreshGuestPrices`) and shows a price that changed as changed.
 * - A signed-in buyer's cart is the server's (`GET /api/cart`, `PUT`/`DELETE /api/cart/items/{id}`,
 *   `DELETE /api/cart`: src/features/cart/server.ts), so it follows the buyer across devices. The
 *   quantity an increment or decrement asks for is the one §4's rules give (`incrementItem`,
 *   `decrementItem`: never below 1); the server answers the cart, with every price read now and a price
 *   changed since it was added marked `priceChanged`.
 * - On sign-in (`setSession` with the buyer's role) a guest cart left in storage is merged into the
 *   server's (`POST /api/cart/merge`, the add rule) and then cleared; items the server skipped (not for
 *   sale any more) are named in `skipped`.
 *
 * Roles other than the buyer have no cart (the server answers them 403): `canBuy` is false for them.
 */
import { useSyncExternalStore } from 'react';
import { HttpError } from 'react-admin';
import {
  addToCart,
  cartItemOf,
  cartTotals,
  decrementItem,
  emptyCart,
  incrementItem,
  lineCents,
  removeFromCart,
  setItemQuantity,
  unitCents,
  type Cart,
  type CartItem,
} from '../../domain/cart.ts';
import { formatCentsMoney } from '../../domain/commission.ts';
import { httpClient } from '../../client/providers/http.ts';
import { SHOP_SEARCH_PATH, type ShopAnswer, type ShopProduct } from './shop-query.ts';

/** Where a guest's cart is kept. */
export const GUEST_CART_KEY = 'marketplace.guestCart';
const CART_PATH = '/api/cart';
const itemPath = (id: string) => `${CART_PATH}/items/${encodeURIComponent(id)}`;
/** The role whose cart this is (spec §6: `user` is the buyer). */
export const BUYER_ROLE = 'user';

/** One line as the cart shows it, whoever keeps it. */
export interface CartViewLine {
  id: string;
  name: string;
  images: string;
  quantity: number;
  /** One unit now, formatted. */
  priceFormatted: string;
  /** Unit × quantity, formatted. */
  lineFormatted: string;
  /** The unit price when it was added, formatted: shown beside the price now when they differ. */
  addedPriceFormatted: string;
  priceChanged: boolean;
  /** False when the product is gone or no longer for sale. */
  available: boolean;
}

export interface CartState {
  /** `guest`: browser storage; `buyer`: the server's cart; `none`: a role that has no cart. */
  mode: 'guest' | 'buyer' | 'none';
  lines: CartViewLine[];
  /** How many units (the badge). */
  count: number;
  total: string;
  priceChanged: boolean;
  loading: boolean;
  /** The last call's failure, in words. */
  error?: string;
  /** Guest items the merge left out (no longer for sale), by name. */
  skipped: string[];
}

/** What a server answer holds (src/features/cart/server.ts `CartAnswer`). */
interface ServerLine extends CartItem {
  available: boolean;
  priceFormatted: string;
  addedPriceFormatted: string;
  priceChanged: boolean;
  lineFormatted: string;
}
interface ServerCart {
  items: ServerLine[];
  totals: { quantity: number; total: string };
  priceChanged: boolean;
  skipped?: { id: string; message: string }[];
}

// ---- guest storage ------------------------------------------------------------------------------

const storage = (): Storage | undefined => {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
};

/** The guest cart kept in storage (anything unreadable is an empty cart). */
export function readGuestCart(): Cart {
  try {
    const raw = JSON.parse(storage()?.getItem(GUEST_CART_KEY) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw
      .filter((x) => x && typeof x.id === 'string' && Number.isInteger(x.quantity) && x.quantity > 0)
      .map((x) => ({ ...cartItemOf(x, x.quantity), price: Number(x.price) || 0 }));
  } catch {
    return [];
  }
}

function writeGuestCart(cart: Cart) {
  if (cart.length) storage()?.setItem(GUEST_CART_KEY, JSON.stringify(cart));
  else storage()?.removeItem(GUEST_CART_KEY);
}

// ---- the store ----------------------------------------------------------------------------------

let guest: Cart = readGuestCart();
/** Products' prices now, as the shop answered them (guest mode), by id; `null`: not for sale. */
let current = new Map<string, ShopProduct | null>();
let server: ServerCart | undefined;
let mode: CartState['mode'] = 'guest';
let loading = false;
let error: string | undefined;
let skipped: string[] = [];
let state: CartState;
const listeners = new Set<() => void>();

const money = (cents: number | undefined) => (cents === undefined ? '' : formatCentsMoney(cents));

function guestLines(): CartViewLine[] {
  return guest.map((item) => {
    const now = current.get(item.id);
    const available = now !== null;
    const priced = now ? { ...item, price: now.price, name: now.name, images: now.images } : item;
    return {
      id: item.id,
      name: priced.name,
      images: priced.images,
      quantity: item.quantity,
      priceFormatted: money(unitCents(priced)),
      lineFormatted: money(lineCents(priced)),
      addedPriceFormatted: money(unitCents(item)),
      priceChanged: !!now && unitCents(item) !== unitCents(priced),
      available,
    };
  });
}

function compute(): CartState {
  if (mode === 'buyer' && server) {
    const lines = server.items.map((x) => ({
      id: x.id,
      name: x.name,
      images: x.images,
      quantity: x.quantity,
      priceFormatted: x.priceFormatted,
      lineFormatted: x.lineFormatted,
      addedPriceFormatted: x.addedPriceFormatted,
      priceChanged: x.priceChanged,
      available: x.available,
    }));
    return { mode, lines, count: server.totals.quantity, total: server.totals.total, priceChanged: server.priceChanged, loading, error, skipped };
  }
  const lines = mode === 'none' ? [] : guestLines();
  const priced = guest.filter((x) => current.get(x.id) !== null).map((x) => ({ ...x, price: current.get(x.id)?.price ?? x.price }));
  const totals = cartTotals(mode === 'none' ? [] : priced);
  return {
    mode,
    lines,
    count: mode === 'none' ? 0 : guest.reduce((n, x) => n + x.quantity, 0),
    total: totals.total,
    priceChanged: lines.some((x) => x.priceChanged),
    loading,
    error,
    skipped,
  };
}

function changed() {
  state = compute();
  for (const listener of listeners) listener();
}
state = compute();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The cart as it is now, and on every change. */
export function useCart(): CartState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
export const cartState = () => state;

function failure(e: unknown): string {
  const body = e instanceof HttpError ? (e.body as { message?: string } | undefined) : undefined;
  return body?.message ?? (e instanceof Error ? e.message : 'Something went wrong.');
}

/** Runs a server call that answers the cart, keeping its answer (or its failure). */
async function serverCall(path: string, method = 'GET', body?: unknown): Promise<void> {
  loading = true;
  changed();
  try {
    const { json } = await httpClient(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    // An answer that is not a cart (a proxy's page, an older server) is a failure, never a crash.
    if (!json || !Array.isArray((json as ServerCart).items) || !(json as ServerCart).totals) throw new Error('The cart could not be read.');
    server = json as ServerCart;
    error = undefined;
  } catch (e) {
    error = failure(e);
  } finally {
    loading = false;
    changed();
  }
}

let sessionRole: string | null | undefined;

/**
 * Who is signed in (a role, or null for a guest): a buyer's cart is read from the server, with a guest
 * cart left in storage merged into it first; a guest's is the stored one; other roles have none.
 */
export async function setSession(role: string | null): Promise<void> {
  if (role === sessionRole) return;
  sessionRole = role;
  if (role === BUYER_ROLE) {
    mode = 'buyer';
    const stored = readGuestCart();
    if (stored.length) {
      await serverCall(`${CART_PATH}/merge`, 'POST', { items: stored.map((x) => ({ id: x.id, quantity: x.quantity, price: x.price })) });
      if (!error) {
        skipped = (server?.skipped ?? []).map((s) => stored.find((x) => x.id === s.id)?.name || s.id);
        guest = emptyCart();
        writeGuestCart(guest);
      }
      changed();
    } else await serverCall(CART_PATH);
    return;
  }
  server = undefined;
  skipped = [];
  mode = role ? 'none' : 'guest';
  guest = readGuestCart();
  changed();
}

/** Reads the buyer's cart again (the cart page on opening). */
export async function reloadCart(): Promise<void> {
  if (mode === 'buyer') await serverCall(CART_PATH);
  else if (mode === 'guest') await refreshGuestPrices();
}

/** Guest mode: each product's price now, from the shop (an approved product by its id), to show a change. */
export async function refreshGuestPrices(): Promise<void> {
  const ids = guest.map((x) => x.id);
  if (!ids.length) return;
  const answers = await Promise.all(
    ids.map((id) =>
      httpClient(`${SHOP_SEARCH_PATH}?${new URLSearchParams({ q: id, type: 'id' })}`)
        .then(({ json }) => [id, (json as ShopAnswer).data[0] ?? null] as const)
        .catch(() => [id, current.get(id)] as const),
    ),
  );
  current = new Map(answers.filter((a): a is readonly [string, ShopProduct | null] => a[1] !== undefined));
  changed();
}

function setGuest(next: Cart) {
  if (next === guest) return;
  guest = next;
  writeGuestCart(guest);
  changed();
}

/** The quantity a rule gives `id` in `cart` (undefined when it is not there). */
const quantityAfter = (cart: Cart, id: string) => cart.find((x) => x.id === id)?.quantity;
/** The server's cart as §4's rules see it. */
const serverItems = (): Cart => server?.items ?? [];

/** Puts a shop product in the cart (one more when it is there: §4's add rule). */
export async function addProduct(product: ShopProduct, amount = 1): Promise<void> {
  if (mode === 'none') return;
  const item = cartItemOf({ ...product });
  if (mode === 'guest') return setGuest(addToCart(guest, item, amount));
  const quantity = quantityAfter(addToCart(serverItems(), item, amount), product.id);
  if (quantity !== undefined) await serverCall(itemPath(product.id), 'PUT', { quantity });
}

export async function increment(id: string): Promise<void> {
  if (mode === 'guest') return setGuest(incrementItem(guest, id));
  const before = quantityAfter(serverItems(), id);
  const quantity = quantityAfter(incrementItem(serverItems(), id), id);
  if (mode === 'buyer' && quantity !== undefined && quantity !== before) await serverCall(itemPath(id), 'PUT', { quantity });
}

/** One fewer, never below 1 (§4). */
export async function decrement(id: string): Promise<void> {
  if (mode === 'guest') return setGuest(decrementItem(guest, id));
  const before = quantityAfter(serverItems(), id);
  const quantity = quantityAfter(decrementItem(serverItems(), id), id);
  if (mode === 'buyer' && quantity !== undefined && quantity !== before) await serverCall(itemPath(id), 'PUT', { quantity });
}

/** Sets a quantity, only above 0 (§5: 0 or less is ignored). */
export async function setQuantity(id: string, quantity: number): Promise<void> {
  if (mode === 'guest') return setGuest(setItemQuantity(guest, id, quantity));
  const next = setItemQuantity(serverItems(), id, quantity);
  if (mode === 'buyer' && next !== serverItems()) await serverCall(itemPath(id), 'PUT', { quantity });
}

export async function remove(id: string): Promise<void> {
  if (mode === 'guest') return setGuest(removeFromCart(guest, id));
  if (mode === 'buyer') await serverCall(itemPath(id), 'DELETE');
}

export async function empty(): Promise<void> {
  if (mode === 'guest') return setGuest(emptyCart());
  if (mode === 'buyer') await serverCall(CART_PATH, 'DELETE');
}

/** Forgets everything the store read (tests; a sign-out). */
export function resetCartStore() {
  guest = readGuestCart();
  current = new Map();
  server = undefined;
  mode = 'guest';
  sessionRole = undefined;
  loading = false;
  error = undefined;
  skipped = [];
  changed();
}

// Another tab changed the guest cart: show it here too.
globalThis.addEventListener?.('storage', (event: StorageEvent) => {
  if (event.key !== GUEST_CART_KEY || mode !== 'guest') return;
  guest = readGuestCart();
  changed();
});
