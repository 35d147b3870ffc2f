/**
 * What the shop's client and server share (pure, no server or React): the public reads' paths, the
 * search modal's types (spec §2 searchModal, §9 "Search types: id and name (default name)"), the
 * query's bounds and refusals, and the shape a product is answered in. The server half is
 * src/server/front/shop.ts; the pages are ShopPage.tsx, SearchResultsPage.tsx and SearchModal.tsx.
 */
export const SHOP_PRODUCTS_PATH = '/api/shop/products';
export const SHOP_SEARCH_PATH = '/api/shop/search';
/** The top-level categories the catalogue filters by: `{ data: [{ id, name }] }`. */
export const SHOP_CATEGORIES_PATH = '/api/shop/categories';
export const MAX_SHOP_CATEGORIES = 500;
/** Spec §2's dialog type of the search modal (SearchModal.tsx): check:spec counts it as declared there. */
export const SEARCH_MODAL = 'searchModal';
/** Spec §9: the search modal's types; `name` is the default. */
export const SEARCH_TYPES = ['id', 'name'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SHOP_LIMITS = { limit: 24, maxLimit: 60, maxPage: 1000, maxQuery: 100 } as const;

export const SHOP_MESSAGES = {
  type: `Search type must be one of ${SEARCH_TYPES.join(', ')}.`,
  query: `The search text must be at most ${SHOP_LIMITS.maxQuery} characters.`,
  category: 'Category must be an id.',
  page: `Page must be a whole number from 1 to ${SHOP_LIMITS.maxPage}.`,
  limit: 'Limit must be a whole number above 0.',
} as const;

/** Spec §2: the modal's type choice, in its order, with its words; `name` is the default. */
export const SEARCH_TYPE_CHOICES: readonly { value: SearchType; label: string }[] = [
  { value: 'id', label: 'Serial Number / Product ID' },
  { value: 'name', label: 'Product name' },
];
export const DEFAULT_SEARCH_TYPE: SearchType = 'name';
/** Spec §2: where submitting the modal goes. */
export const SEARCH_PAGE = '/search';
/** The client pages of the shop. */
export const SHOP_PAGE = '/shop';
export const CART_PAGE = '/cart';

/** The results page's address for a search. */
export const searchAddress = (q: string, type: SearchType) => `${SEARCH_PAGE}?${new URLSearchParams({ q, type })}`;

/** One product as the shop shows it, its price also in cents and formatted. */
export interface ShopProduct {
  id: string;
  name: string;
  price: number;
  priceCents: number | null;
  priceFormatted: string;
  images: string;
  slug: string;
  category: string;
  stock: number;
}

export interface ShopAnswer {
  data: ShopProduct[];
  total: number;
}

