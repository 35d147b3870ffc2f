/**
 * Schemas of the OpenAPI document: request bodies from the manifests' zod rules (through zod's own
 * `z.toJSONSchema`, as the forms get them), records from the table columns the server answers, the
 * list dialect's query parameters from what the server's list parser allows, and the shared answers.
 */
import { z } from 'zod';
import { labelOf, listOptions, RANGE_ENDS, ROLES, type Access, type Embed, type FieldDef, type ListRead, type Registry, type ResourceDef } from '../../manifest/index.ts';
import { DEFAULT_LIMIT, DEFAULT_PAGE, filterableFields, MAX_PAGE } from '../db/list-query.ts';
import { columnsOf } from '../db/tables.ts';
import type { JsonSchema, Parameter, Ref, Response } from './types.ts';

/** A zod rule as JSON Schema: the input it accepts (before trims and transforms), as the form sees it. */
export function jsonSchemaOf(rule: z.ZodType): JsonSchema {
  const schema = z.toJSONSchema(rule, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema; // OpenAPI 3.1's dialect is 2020-12 already
  return schema;
}

/** The roles an access lets in: `'signedIn'` is every role with a session. */
export const rolesOf = (access: Access): string[] => (access === 'signedIn' ? [...ROLES] : [...access]);

/** A `$ref` to a schema under `#/components/schemas` (a resource's record: its name). */
export const refTo = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string) => ({ type: [type, 'null'] });

/** The JSON type a field's value is answered as (booleans stored 0/1 are answered as booleans). */
function valueSchema(f: FieldDef): JsonSchema {
  if (f.kind === 'boolean') return nullable('boolean');
  if (f.kind === 'select' && f.options) return { enum: [...f.options, null] };
  if (f.storage === 'integer') return nullable('integer');
  if (f.storage === 'real') return nullable('number');
  return nullable('string');
}

/** A record as the API answers it: every column of its table except secrets (see `toRecord`). */
export function recordSchema(r: ResourceDef): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const column of columnsOf(r)) {
    const f = column.field;
    if (f?.secret) continue;
    if (f) properties[column.name] = { ...valueSchema(f), title: labelOf(f), ...(f.hint ? { description: f.hint } : {}) };
    else if (column.name === 'id') properties.id = { type: 'string' };
    else if (column.storage === 'integer') properties[column.name] = { type: 'integer' };
    else properties[column.name] = { type: 'string', ...(column.name.endsWith('At') ? { format: 'date-time' } : {}) };
  }
  // An `items` field: its sub-records embedded as a list, in position order (line-items.ts).
  for (const f of r.fields)
    if (f.kind === 'items') {
      const item: Record<string, JsonSchema> = {};
      for (const sub of f.items!.fields) item[sub.name] = { ...valueSchema(sub), title: labelOf(sub) };
      properties[f.name] = { type: 'array', title: labelOf(f), items: { type: 'object', properties: item } };
    }
  return { type: 'object', title: r.label, properties, required: ['id'] };
}

/** A record with the related records a read nests into it (`embed`), each `null` when it is gone. */
export function embeddedSchema(registry: Registry, r: ResourceDef, embed: Embed | undefined): JsonSchema {
  if (!embed) return refTo(r.name);
  const properties: Record<string, JsonSchema> = {};
  for (const [key, e] of Object.entries(embed)) {
    const via = r.fields.find((f) => f.name === e.via)!;
    const target = registry.resource(via.reference!);
    properties[key] = { anyOf: [embeddedSchema(registry, target, e.embed), { type: 'null' }] };
  }
  return { allOf: [refTo(r.name)], properties };
}

/** The shape of every 4xx answer (`HttpError`): a message and, for bad input, messages by field. */
export const errorSchema: JsonSchema = {
  type: 'object',
  properties: {
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
  required: ['message'],
};

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const errorAnswer = (description: string): Response => ({ description, content: json(refTo('Error')) });

/** The answers many routes share, under `#/components/responses`. */
export const sharedResponses = {
  BadRequest: errorAnswer('The input is refused: `{ message, errors: { field: [messages] } }`, with the form’s own messages.'),
  Unauthorized: errorAnswer('No session: sign in first (`POST /api/auth/login`).'),
  Forbidden: errorAnswer('The signed-in role may not call this, or the request came from a foreign origin.'),
  NotFound: errorAnswer('No such record.'),
  Conflict: errorAnswer('Conflicts with stored records: a unique value is taken, or other records still point at this one.'),
  PayloadTooLarge: errorAnswer('The request body is too large.'),
  TooManyRequests: {
    ...errorAnswer('Too many requests: wait the `Retry-After` seconds.'),
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } },
  },
} satisfies Record<string, Response>;

export type SharedResponse = keyof typeof sharedResponses;
/** A `$ref` to one of the shared answers. */
export const answer = (name: SharedResponse): Ref => ({ $ref: `#/components/responses/${name}` });

/** A query parameter sent as JSON text (`sort=["name","ASC"]`), as ra-data-simple-rest sends it. */
const jsonQuery = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name,
  in: 'query',
  description,
  content: { 'application/json': { schema } },
});

/** What a list filter compares a field with: its stored type, or a list of them (any of). */
function filterValue(f: FieldDef | undefined): JsonSchema {
  const one: JsonSchema =
    f?.kind === 'boolean'
      ? { enum: [true, false, 1, 0, '1', '0', 'true', 'false'] }
      : f && f.storage !== 'text'
        ? { type: f.storage === 'integer' ? 'integer' : 'number' }
        : { type: ['string', 'number'] };
  return { anyOf: [one, { type: 'array', items: one }] };
}

/**
 * The query parameters of a list read: the sorts and filters the server's list parser allows
 * (`parseListQuery`), and its paging dialect (`range`, or `page` and `limit`).
 */
export function listParameters(r: ResourceDef, read: ListRead): Parameter[] {
  const { sorts, search, ranges } = listOptions(r);
  const filters: Record<string, JsonSchema> = {};
  for (const name of filterableFields(r)) filters[name] = filterValue(r.fields.find((f) => f.name === name));
  // Date ranges: `<field>_gte` and `<field>_lte`, a date (the whole day) or a date and time.
  for (const name of ranges)
    for (const [end, suffix] of [['from', RANGE_ENDS.from], ['until', RANGE_ENDS.to]] as const)
      filters[name + suffix] = { type: 'string', description: `${name} ${end} this date or instant (ISO 8601), included.` };
  if (search.length) filters.q = { type: 'string', description: `Text searched for in ${search.join(', ')}.` };
  const params: Parameter[] = [
    jsonQuery('sort', `\`[field, order]\`; default \`["${r.sort.field}","${r.sort.order}"]\`.`, {
      type: 'array',
      prefixItems: [{ enum: sorts }, { enum: ['ASC', 'DESC'] }],
      minItems: 1,
      maxItems: 2,
    }),
    jsonQuery('filter', 'Exact matches (a list matches any of its items)' + (search.length ? ', and `q`: free-text search.' : '.'), {
      type: 'object',
      properties: filters,
      additionalProperties: false,
    }),
  ];
  if ((read.paging ?? 'range') === 'page')
    params.push(
      { name: 'page', in: 'query', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
      {
        name: 'limit',
        in: 'query',
        description: 'Records per page.',
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_LIMIT },
      },
    );
  else
    params.push(
      jsonQuery('range', `\`[first, last]\`, inclusive, from 0; at most ${MAX_PAGE} records; default \`[0, ${DEFAULT_PAGE - 1}]\`.`, {
        type: 'array',
        prefixItems: [
          { type: 'integer', minimum: 0 },
          { type: 'integer', minimum: 0 },
        ],
        minItems: 2,
        maxItems: 2,
      }),
    );
  return params;
}
