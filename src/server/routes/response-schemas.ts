/**
 * The JSON schemas of the generated reads' answers, made from the manifest the tables are made from
 * (`columnsOf`), for every resource alike: Fastify compiles each route's `schema.response` with
 * fast-json-stringify, and the read routes serialise their answers through it (`reply.serialize`).
 *
 * fast-json-stringify drops what a schema does not name and coerces what it names to the named type,
 * so a schema that is wrong loses data without a sound. These schemas are made so that the answer is
 * exactly what `JSON.stringify` of the same value gives (tests/unit/response-schemas.test.ts checks it
 * on both engines' rows):
 * - every column a record may carry is named, except the secret ones, which `toRecord` has removed (a
 *   password hash is never in the value, so never in the answer);
 * - `additionalProperties: true`: migrations are additive, so a removed field's column stays and
 *   `selectAll` still reads it; it is answered as JSON.stringify would answer it, never dropped;
 * - each column's type is a list (`['null', 'string']`): fast-json-stringify then writes a value of a
 *   listed type as itself and throws on any other, where a single type would coerce (a number to a
 *   string, null to false); on a throw the route answers with `JSON.stringify` (`serialize` below).
 */
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import type { Embed, ReadDef, Registry, ResourceDef } from '../../manifest/index.ts';
import { columnsOf, itemsTablesOf, ITEM_COLUMNS, type ColumnDef } from '../db/tables.ts';

type Schema = Record<string, unknown>;
type Serializer = (value: unknown) => string;

/** Fastify's own fast-json-stringify (the one it compiles response schemas with), not a copy of ours. */
const fastJsonStringify = createRequire(createRequire(import.meta.url).resolve('fastify'))('fast-json-stringify') as (
  schema: Schema,
) => Serializer;

/**
 * The types a column's value has: null or its storage's (a boolean field's is answered as a boolean).
 * Only these two, so the generated code stays small (every read route compiles its own at start-up); a
 * value of another type, which SQLite could hold, makes the serialiser throw (never coerce), and
 * `serialize` answers with JSON.stringify.
 */
function typesOf(c: ColumnDef): string[] {
  return ['null', c.field?.kind === 'boolean' ? 'boolean' : c.storage === 'text' ? 'string' : 'number'];
}

/** One record as the reads answer it (`toRecord`), with the records its read embeds. */
export function recordSchema(registry: Registry, r: ResourceDef, embed?: Embed): Schema {
  const properties: Record<string, Schema> = {};
  for (const c of columnsOf(r)) if (!c.field?.secret) properties[c.name] = { type: typesOf(c) };
  // An `items` field: its list of sub-records (line-items.ts), each its sub-fields' values.
  for (const t of itemsTablesOf(r)) {
    const item: Record<string, Schema> = {};
    for (const c of t.columns) if (!(ITEM_COLUMNS as readonly string[]).includes(c.name)) item[c.name] = { type: typesOf(c) };
    properties[t.field.name] = { type: 'array', items: { type: 'object', properties: item, additionalProperties: true } };
  }
  for (const [key, { via, embed: deeper }] of Object.entries(embed ?? {})) {
    const target = registry.resource(r.fields.find((f) => f.name === via)!.reference!);
    // An embedded record, or null when the reference finds none.
    properties[key] = { ...recordSchema(registry, target, deeper), type: ['null', 'object'] };
  }
  return { type: 'object', properties, additionalProperties: true };
}

/** The answer of a read, as `reads.ts` builds it; none for `self` (the signed-in user, read fresh). */
export function answerSchema(registry: Registry, r: ResourceDef, read: ReadDef): Schema | undefined {
  switch (read.kind) {
    case 'one':
      return recordSchema(registry, r, read.embed);
    case 'grouped':
      return { type: 'object', additionalProperties: { type: 'array', items: recordSchema(registry, r) } };
    case 'list': {
      const rows = { type: 'array', items: recordSchema(registry, r, read.embed) };
      if ((read.paging ?? 'range') === 'range') return rows;
      return {
        type: 'object',
        properties: { data: rows, total: { type: 'number' }, page: { type: 'number' }, limit: { type: 'number' } },
        required: ['data', 'total', 'page', 'limit'],
        // Built in reads.ts with exactly these four.
        additionalProperties: false,
      };
    }
    default:
      return undefined;
  }
}

/** Each read's serialiser, compiled on its first answer and shared by every app of the process. */
const compiled = new WeakMap<ReadDef, Serializer>();

/**
 * Route options declaring a read's answer: Fastify's `schema.response`, with a serialiser compiler that
 * compiles it (with Fastify's fast-json-stringify) when the route first answers, once per read in the
 * process. Compiling every read's schema at start-up took 0.4–0.7 s, paid by every server a test starts.
 */
export function responseOptionsOf(registry: Registry, r: ResourceDef, read: ReadDef) {
  const schema = answerSchema(registry, r, read);
  if (!schema) return undefined;
  const serializerCompiler = (): Serializer => (value) => {
    let serializer = compiled.get(read);
    if (!serializer) compiled.set(read, (serializer = fastJsonStringify(schema)));
    return serializer(value);
  };
  return { schema: { response: { 200: schema } }, serializerCompiler };
}

/**
 * A 200 answer through the route's compiled schema; with `JSON.stringify` when the value holds
 * something no schema type takes (the serialiser throws rather than guess).
 */
export function serialize(reply: FastifyReply, value: unknown): string {
  try {
    return reply.serialize(value) as string;
  } catch {
    return JSON.stringify(value);
  }
}
