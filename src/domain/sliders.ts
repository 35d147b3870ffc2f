/**
 * The front page's people sliders (`GET /api/front/sliders?type=ADMINS|AGENTS|DEALERS|SELLERS&page&limit`):
 * spec §3 "Slider entries", §8 "Sliders and affiliate" and §9's defaults and fallbacks, as data plus
 * two pure functions, shared by the server (which answers filled entries) and the client (which asks with
 * the defaults and shows the load errors).
 */
import { countryName } from './countries.ts';

/** The four slider types, as the `type` query parameter spells them. */
export const SLIDER_TYPES = ['ADMINS', 'AGENTS', 'DEALERS', 'SELLERS'] as const;
export type SliderType = (typeof SLIDER_TYPES)[number];

/**
 * §9 "Sliders: defaults page 1, limit 1000, timeout 10 s, cache kept 1800 s, refetch on mount after
 * 900 s". `maxLimit` is the server's bound on `limit` (the default is also the most it answers).
 */
export const SLIDER_DEFAULTS = Object.freeze({
  page: 1,
  limit: 1000,
  maxLimit: 1000,
  timeoutMs: 10_000,
  /** How long a loaded slider is kept in the client's cache. */
  cacheMs: 1_800_000,
  /** After this long a mounted slider fetches again. */
  staleMs: 900_000,
});

/** §8 "Slider load errors", one per type. */
export const SLIDER_LOAD_ERRORS: Readonly<Record<SliderType, string>> = Object.freeze({
  ADMINS: 'Failed to load admin data',
  AGENTS: 'Failed to load agent data',
  DEALERS: 'Failed to load dealer data',
  SELLERS: 'Failed to load seller data',
});

/** §3 "Slider entries": the fields each type shows (a seller's `shopname` is shown as its name). */
export interface AdminSliderEntry {
  name: string;
  country: string;
  image: string | null;
}
export interface AgentSliderEntry {
  name: string;
  image: string | null;
  country: string;
  city: string;
  district: string;
  agentId: string | null;
}
export interface DealerSliderEntry {
  name: string;
  city: string;
  country: string;
  district: string;
  image: string | null;
  dealerId: string | null;
}
export interface SellerSliderEntry {
  /** The shop's name, shown as the entry's name. */
  name: string;
  shopname: string;
  country: string;
  /** The seller's user image. */
  image: string | null;
}
/**
 * The fields each type's entry declares, by §3's entity name (the spec check reads them: a §3 field missing
 * here is a mismatch). Each list is held to its interface's keys by the type checker.
 */
export const SLIDER_ENTRY_FIELDS = Object.freeze({
  'Admin slider entry': ['name', 'country', 'image'] satisfies (keyof AdminSliderEntry)[],
  'Agent slider entry': ['name', 'image', 'country', 'city', 'district', 'agentId'] satisfies (keyof AgentSliderEntry)[],
  'Dealer slider entry': ['name', 'city', 'country', 'district', 'image', 'dealerId'] satisfies (keyof DealerSliderEntry)[],
  'Seller slider entry': ['name', 'shopname', 'country', 'image'] satisfies (keyof SellerSliderEntry)[],
});
export interface SliderEntries {
  ADMINS: AdminSliderEntry;
  AGENTS: AgentSliderEntry;
  DEALERS: DealerSliderEntry;
  SELLERS: SellerSliderEntry;
}

/**
 * §9 "Slider fallbacks: admin name 'Admin', country 'Unknown'; agent name 'Agent', country
 * 'Bangladesh', city 'Dhaka', district 'Dhaka'; dealer name 'Dealer', city 'City', country 'Country',
 * district 'District'; seller name 'Seller', country 'Country'."
 */
export const SLIDER_FALLBACKS = Object.freeze({
  ADMINS: Object.freeze({ name: 'Admin', country: 'Unknown' }),
  AGENTS: Object.freeze({ name: 'Agent', country: 'Bangladesh', city: 'Dhaka', district: 'Dhaka' }),
  DEALERS: Object.freeze({ name: 'Dealer', city: 'City', country: 'Country', district: 'District' }),
  SELLERS: Object.freeze({ name: 'Seller', country: 'Country' }),
});

/** Whether `type` is one of the four slider types (exact spelling). */
export function isSliderType(type: unknown): type is SliderType {
  return typeof type === 'string' && (SLIDER_TYPES as readonly string[]).includes(type);
}

/** A text field's value, trimmed; null when missing, not text, or blank. */
function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed || null;
}

/** A country as the slider shows it: a code the country table knows becomes its name ('BD' → 'Bangladesh'). */
function country(value: unknown, fallback: string): string {
  const given = text(value);
  if (!given) return fallback;
  return /^[A-Za-z]{2,3}$/.test(given) ? (countryName(given) ?? given) : given;
}

type Row = Record<string, unknown> | null | undefined;

/**
 * One slider entry of `type` with its missing fields filled from §9's fallbacks: a field is missing
 * when it is absent, null, not text, or blank. Only the type's fields are kept (§3), so nothing else a
 * record holds (an email, a hash) reaches the public answer. A country given as a code is shown by name.
 * `image`, `agentId` and `dealerId` have no fallback: null when missing. A seller's name is its
 * `shopname` (its `name` when it has no shop name), and its image the user's (`image`, or `user.image`).
 * Pure; never throws, whatever `row` is.
 */
export function fillSliderEntry<T extends SliderType>(type: T, row: Row): SliderEntries[T];
export function fillSliderEntry(type: SliderType, row: Row): SliderEntries[SliderType] {
  const r: Record<string, unknown> = row && typeof row === 'object' ? row : {};
  switch (type) {
    case 'ADMINS': {
      const f = SLIDER_FALLBACKS.ADMINS;
      return { name: text(r.name) ?? f.name, country: country(r.country, f.country), image: text(r.image) };
    }
    case 'AGENTS': {
      const f = SLIDER_FALLBACKS.AGENTS;
      return {
        name: text(r.name) ?? f.name,
        image: text(r.image),
        country: country(r.country, f.country),
        city: text(r.city) ?? f.city,
        district: text(r.district) ?? f.district,
        agentId: text(r.agentId),
      };
    }
    case 'DEALERS': {
      const f = SLIDER_FALLBACKS.DEALERS;
      return {
        name: text(r.name) ?? f.name,
        city: text(r.city) ?? f.city,
        country: country(r.country, f.country),
        district: text(r.district) ?? f.district,
        image: text(r.image),
        dealerId: text(r.dealerId),
      };
    }
    case 'SELLERS': {
      const f = SLIDER_FALLBACKS.SELLERS;
      const user = r.user && typeof r.user === 'object' ? (r.user as Record<string, unknown>) : {};
      const name = text(r.shopname) ?? text(r.name) ?? f.name;
      return { name, shopname: name, country: country(r.country, f.country), image: text(r.image) ?? text(user.image) };
    }
  }
}

/** The largest `page` a slider query may ask for. */
export const MAX_SLIDER_PAGE = 1_000_000;

/** The slider query read: the type and the page asked for, defaults applied. */
export interface SliderQuery {
  type: SliderType;
  page: number;
  limit: number;
}

/**
 * `?type&page&limit` read with §9's defaults (page 1, limit 1000): `type` must be one of the four;
 * `page` and `limit`, when given, whole numbers of at least 1 (page at most 1,000,000); a `limit` above
 * 1000 is lowered to 1000. Anything else is refused in the API's 400 shape.
 */
export function parseSliderQuery(
  query: Record<string, unknown> | null | undefined,
): { ok: true; value: SliderQuery } | { ok: false; message: string; errors: Record<string, string[]> } {
  const q = query ?? {};
  const errors: Record<string, string[]> = {};
  const type = q.type;
  if (!isSliderType(type)) errors.type = [`type must be one of ${SLIDER_TYPES.join(', ')}`];
  // A page past the bound is refused (an offset nobody pages to); a limit past it is lowered, as a
  // client asking for "everything" still gets the most the server answers.
  const whole = (name: 'page' | 'limit', fallback: number, max: number, lower: boolean): number => {
    const raw = q[name];
    if (raw === undefined || raw === '') return fallback;
    const value =
      typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,16}$/.test(raw.trim()) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) errors[name] = [`${name} must be a whole number of at least 1`];
    else if (value > max && !lower) errors[name] = [`${name} must be at most ${max}`];
    else return Math.min(value, max);
    return fallback;
  };
  const page = whole('page', SLIDER_DEFAULTS.page, MAX_SLIDER_PAGE, false);
  const limit = whole('limit', SLIDER_DEFAULTS.limit, SLIDER_DEFAULTS.maxLimit, true);
  if (Object.keys(errors).length) return { ok: false, message: 'Invalid slider query', errors };
  return { ok: true, value: { type: type as SliderType, page, limit } };
}
