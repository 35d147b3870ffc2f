/**
 * The computations of fields declared `computed: { by, from }` (src/manifest/types.ts): pure functions
 * of the record's other fields, run by the form as the user types (shown read-only) and by the server on
 * every write, which never takes the client's value. A manifest references one as a value
 * (`by: computations.agentId`), so a misspelt one fails the type check, not the first write.
 */
import { agentIdOf } from './names.ts';
import { centsToNumber, parsePrice, quoteFromWire } from './commission.ts';

type Values = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : String(v));

/** A computation: the value of a computed field from the record's values. */
export type Computation = (values: Values) => string | number;

export const computations = {
  /** An agent's id from its name, city, district and country (spec §9's display-name helper). */
  agentId: (v) => agentIdOf({ name: text(v.name), city: text(v.city), district: text(v.district), country: text(v.country) }),
  /** A dealer's public id (spec §3 Dealer `dealerId`), made from the same parts by the same helper. */
  dealerId: (v) => agentIdOf({ name: text(v.name), city: text(v.city), district: text(v.district), country: text(v.country) }),
  /**
   * A product's main sell price (spec §5): its seller price plus the five commissions, each rounded to
   * the cent (src/domain/commission.ts). NaN while an input is not a valid price or percentage: never
   * for a record the server writes, whose seller price and percentages are validated first.
   */
  productPrice: (v) => {
    const quoted = quoteFromWire(v);
    return quoted.ok ? centsToNumber(quoted.quote.priceCents) : Number.NaN;
  },
  /** A job's pay in cents (resources/jobs.ts), 0 while none is given or it is not a valid amount. */
  payCents: (v) => {
    if (v.pay === undefined || v.pay === null || v.pay === '') return 0;
    const parsed = parsePrice(v.pay);
    return parsed.ok ? parsed.value : 0;
  },
} satisfies Record<string, Computation>;
