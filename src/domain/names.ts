/**
 * The agent's generated id (spec §3 Agent: "agentId (generated from name, city, district, country)"),
 * made by §9's display-name helper (`displayName` in `countries.ts`: "initials of three names joined by
 * dots plus a country code, 'XX' if unknown ... the United States maps to 'USA'").
 *
 * Which three names: an agent has one `name` field (the person's full name) and, besides its country,
 * exactly two other name-like fields, `city` and `district`; §3 lists the id's inputs as "name, city,
 * district, country" and §9's helper takes "three names ... plus a country code". So the three names are
 * the agent's name, city and district, in that order, and the agent's full name gives one initial (its
 * first letter), as each of the three names does:
 *   agentIdOf({ name: 'Rahim Uddin', city: 'Dhaka', district: 'Mirpur', country: 'BD' }) === 'R.D.M.BGD'
 * The country code is the ISO alpha-3 code, as the spec's 'USA' for the United States shows; the agent's
 * `country` is stored as its two-letter code (alpha-3 is read too).
 */
import { displayName } from './countries.ts';

/** The fields of an agent its id is made from. */
export interface AgentIdParts {
  name?: string | null;
  city?: string | null;
  district?: string | null;
  /** Two-letter (or three-letter) ISO code; unknown or missing gives 'XX'. */
  country?: string | null;
}

/**
 * A name as the display-name helper should see it: composed (NFC, so 'e' + a combining accent is one
 * letter, 'É', not a bare 'E'), and starting at its first letter or digit, so quotes, brackets, dashes
 * or an emoji before a name do not become its initial ('"Rahim"' → 'Rahim').
 */
function fromFirstLetter(name: string | null | undefined): string {
  if (typeof name !== 'string') return '';
  return name.normalize('NFC').replace(/^[^\p{L}\p{N}]+/u, '');
}

/**
 * The agent's id: the initials of its name, city and district, then the country's alpha-3 code, joined
 * by dots (see the module comment for why these three). Blank parts give no initial (§9's helper leaves
 * them out rather than leaving an empty slot); an unknown or missing country gives 'XX'. Letters of any
 * script are kept as they are, upper-cased where the script has case:
 *   agentIdOf({ name: 'John Smith', city: 'Austin', district: 'Travis', country: 'US' }) === 'J.A.T.USA'
 *   agentIdOf({ name: 'Rahim', city: 'Dhaka', district: '', country: 'ZZ' })          === 'R.D.XX'
 *   agentIdOf({ name: 'রহিম', city: 'ঢাকা', district: 'মিরপুর', country: 'BD' })          === 'র.ঢ.ম.BGD'
 * Pure: the agent dialog shows it as the name is typed, and the server recomputes it on every write
 * (the client's value is never taken).
 */
export function agentIdOf(parts: AgentIdParts): string {
  return displayName(
    fromFirstLetter(parts?.name),
    fromFirstLetter(parts?.city),
    fromFirstLetter(parts?.district),
    parts?.country,
  );
}

/**
 * Initials collide (every 'R' from Dhaka's Mirpur is 'R.D.M.BGD'), while `GET /agents/public/?agentId`
 * finds one agent by its id. Given the ids other records already hold (those starting with `base` are
 * enough), this gives `base` when it is free, else the first free one of 'R.D.M.BGD-2', 'R.D.M.BGD-3', …
 * The server keeps every unique computed field so (src/server/records/writes.ts).
 */
export function firstFreeId(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  // At most used.size + 1 tries: a finite set cannot hold every suffix.
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
