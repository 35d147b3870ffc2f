/**
 * The OpenAPI 3.1 document of the whole API, generated from the manifests: a path per declared call
 * (reads, dialogs, operations, default-record settings, reorders) with its body schema from the same
 * zod rules the form and the route use, its answers, and the roles that may call it; plus the routes
 * no manifest declares (`fixed-routes.ts`). It follows the DSL's documented meaning (`src/manifest/types.ts`),
 * not how the routes happen to be registered; `tests/api/openapi.test.ts` holds it to the real routes.
 */
import {
  dialogAccess,
  formJsonSchema,
  parseCall,
  transitionForm,
  transitionsOf,
  urlOf,
  type Access,
  type Call,
  type DialogDef,
  type ListRead,
  type OperationDef,
  type ReadDef,
  type Registry,
  type ResourceDef,
} from '../../manifest/index.ts';
import { reorderSchema } from '../routes/reorder.ts';
import { defaultRecordSchema } from '../routes/default-record.ts';
import { csvColumns, FORMAT_PARAM, FORMATS } from '../routes/export.ts';
import { DOCS_PATH, fixedRoutes, OPENAPI_PATH } from './fixed-routes.ts';
import { handlerDocs, type HandlerDoc } from './handlers.ts';
import {
  answer,
  embeddedSchema,
  errorSchema,
  jsonSchemaOf,
  listParameters,
  recordSchema,
  refTo,
  rolesOf,
  sharedResponses,
} from './schemas.ts';
import type { JsonSchema, Method, OpenApiDocument, Operation, Parameter, Ref, RequestBody, Response } from './types.ts';

/** What the document takes besides the manifests. */
export interface DocumentOptions {
  /** The API's version (the package's). */
  version?: string;
}

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
const ok = (description: string, schema: JsonSchema, headers?: Response['headers']): Response => ({
  description,
  ...(headers ? { headers } : {}),
  content: json(schema),
});
const jsonBody = (schema: JsonSchema): RequestBody => ({ required: true, content: json(schema) });

const CONTENT_RANGE = {
  'Content-Range': { description: '`<resource> <first>-<last>/<total>`', schema: { type: 'string' } },
};
const ETAG = { ETag: { description: 'The record’s version; send it back as `If-Match` to update it safely.', schema: { type: 'string' } } };
const IF_MATCH: Parameter = {
  name: 'If-Match',
  in: 'header',
  description: 'The version (`ETag`) the record was read at. When the record has changed since, nothing is written: 412.',
  schema: { type: 'string' },
};

/** What a manifest call's operation is made from; the shared answers are added by `manifestOperation`. */
interface CallSpec {
  call: Call;
  id: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Ref>;
  /** What a path parameter holds, when it is not a record's id. */
  paramDescription?: string;
  /** A path parameter narrows a list rather than naming one record: no 404 for an unknown value. */
  narrows?: boolean;
  dialog?: string;
}

/**
 * The operation of a manifest call, with the answers every such route shares: 401 without a session,
 * 403 for a role the access leaves out (and for any write from a foreign origin), 404 when the path
 * names a record, 400 when it takes any input, 413 when it takes a JSON body.
 */
function manifestOperation(spec: CallSpec): { method: Method; path: string; operation: Operation } {
  const { method, path, params } = parseCall(spec.call);
  const pathParams: Parameter[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: spec.paramDescription ?? (name === 'id' && !spec.narrows ? 'The record’s id.' : undefined),
    schema: { type: 'string' },
  }));
  const parameters = [...pathParams, ...(spec.parameters ?? [])];
  const responses: Record<string, Response | Ref> = { ...spec.responses, 401: answer('Unauthorized') };
  if (spec.access !== 'signedIn' || method !== 'GET') responses[403] ??= answer('Forbidden');
  if (params.length && !spec.narrows) responses[404] ??= answer('NotFound');
  if (parameters.length || spec.requestBody) responses[400] ??= answer('BadRequest');
  if (spec.requestBody?.content['application/json']) responses[413] ??= answer('PayloadTooLarge');
  return {
    method: method.toLowerCase() as Method,
    path: urlOf(path),
    operation: {
      operationId: spec.id,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: [spec.tag],
      ...(parameters.length ? { parameters } : {}),
      ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
      responses: sortedByStatus(responses),
      security: [{ sid: [] }],
      'x-roles': rolesOf(spec.access),
      ...(spec.dialog ? { 'x-dialog': spec.dialog } : {}),
    },
  };
}

function sortedByStatus<T>(responses: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** A handler's own description, or: it answers some JSON, or nothing. */
function handlerDocOf(name: string): HandlerDoc {
  return (
    handlerDocs[name] ?? {
      responses: {
        200: ok('What the handler answers.', {}),
        204: { description: 'Done; nothing to answer.' },
      },
    }
  );
}

const lower = (s: string) => s.toLowerCase();
const article = (label: string) => (/^[aeiou]/i.test(label) ? 'an' : 'a');

function readSpec(registry: Registry, r: ResourceDef, name: string, read: ReadDef, tag: string): CallSpec {
  const base = { call: read.call, id: `${r.name}.${name}`, tag, access: read.access ?? r.access.read };
  switch (read.kind) {
    case 'list':
      return { ...base, ...listSpec(registry, r, read) };
    case 'one': {
      const by = read.by ?? 'id';
      const what = read.value === undefined ? `by its ${by}` : `whose ${by} is '${read.value}'`;
      return {
        ...base,
        summary: `One ${lower(r.label)} ${what}`,
        paramDescription: `The ${lower(r.label)}’s ${by}.`,
        responses: {
          200: ok(`The ${lower(r.label)}.`, embeddedSchema(registry, r, read.embed), ETAG),
          404: answer('NotFound'),
        },
      };
    }
    case 'self':
      return { ...base, summary: `The signed-in ${lower(r.label)}`, responses: { 200: ok('Your own record.', refTo(r.name)) } };
    case 'grouped':
      return {
        ...base,
        summary: `Every ${lower(r.label)} grouped by ${read.by}`,
        responses: {
          200: ok(`\`{ [${read.by}]: records }\`, each group in the list’s order.`, {
            type: 'object',
            additionalProperties: { type: 'array', items: refTo(r.name) },
          }),
        },
      };
  }
}

function listSpec(registry: Registry, r: ResourceDef, read: ListRead): Omit<CallSpec, 'call' | 'id' | 'tag' | 'access'> {
  const item = embeddedSchema(registry, r, read.embed);
  const parameters = listParameters(r, read);
  const responses: Record<string, Response | Ref> = {};
  let summary = `List ${lower(r.plural)}`;
  let paramDescription: string | undefined;
  if (read.scope) {
    const { field, param, match = 'id' } = read.scope;
    const f = r.fields.find((x) => x.name === field)!;
    const parent = f.kind === 'reference' ? registry.resource(f.reference!) : undefined;
    summary += parent ? ` of one ${lower(parent.label)}` : ` by ${field}`;
    const description = parent ? `The ${lower(parent.label)}’s ${match}.` : `Only the ${lower(r.plural)} whose ${field} is this.`;
    if (parseCall(read.call).params.includes(param)) paramDescription = description;
    else
      parameters.unshift({ name: param, in: 'query', description, schema: scopeSchema(f.kind === 'reference' ? 'text' : f.storage) });
    // A parent named by another field than the one the reference holds is looked up first.
    if (parent && match !== (f.referenceBy ?? 'id')) responses[404] = answer('NotFound');
  }
  const paged = (read.paging ?? 'range') === 'page';
  responses[200] = ok(
    paged ? 'A page of records, with the total.' : 'A page of records; `Content-Range` gives the total.',
    paged
      ? {
          type: 'object',
          properties: { data: { type: 'array', items: item }, total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' } },
          required: ['data', 'total', 'page', 'limit'],
        }
      : { type: 'array', items: item },
    CONTENT_RANGE,
  );
  // `?format=csv` (export.ts): the same rows, all pages, as a CSV download.
  parameters.push({
    name: FORMAT_PARAM,
    in: 'query',
    description:
      `\`csv\`: every record the sort, filter and scope select (all pages: \`range\`, \`page\` and \`limit\` are left aside), ` +
      `streamed as a CSV download with the columns ${csvColumns(r).join(', ')}, and beside each reference the reader may read ` +
      `its record's title (\`<field> label\`); text a spreadsheet would run as a formula starts with '.`,
    schema: { enum: [...FORMATS], default: 'json' },
  });
  const page = responses[200] as Response;
  page.description += ' With `format=csv`: every record, as CSV.';
  page.content = { ...page.content, 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } } };
  page.headers = {
    ...page.headers,
    'Content-Disposition': { description: 'With `format=csv`: `attachment; filename="<resource>-<date>.csv"`.', schema: { type: 'string' } },
  };
  return { summary, parameters, responses, paramDescription, narrows: true };
}

const scopeSchema = (storage: string): JsonSchema =>
  storage === 'integer' ? { type: 'integer' } : storage === 'real' ? { type: 'number' } : { type: 'string' };

function dialogSpec(registry: Registry, r: ResourceDef, type: string, d: Exclude<DialogDef, { kind: 'details' }>, tag: string): CallSpec {
  const label = lower(r.label);
  const unique = r.fields.some((f) => f.unique);
  const base = { call: d.call, id: `${r.name}.${type}`, tag, access: dialogAccess(r, d), dialog: type };
  const body = 'pick' in d ? jsonBody(formJsonSchema(r, d)) : undefined;
  const record = refTo(r.name);
  const said = (what: string, message: string) => `The \`${type}\` dialog’s call. ${what}: ‘${message}’`;
  switch (d.kind) {
    case 'create':
      return {
        ...base,
        summary: d.title ?? `Create ${article(label)} ${label}`,
        description: said('On success the form says', d.success),
        requestBody: body,
        responses: { 201: ok(`The created ${label}.`, record, ETAG), ...(unique ? { 409: answer('Conflict') } : {}) },
      };
    case 'update':
      return {
        ...base,
        summary: d.title ?? `Update ${article(label)} ${label}`,
        description: said('On success the form says', d.success),
        parameters: [IF_MATCH],
        requestBody: body,
        responses: {
          200: ok(`The updated ${label}.`, record, ETAG),
          ...(unique ? { 409: answer('Conflict') } : {}),
          412: ok(
            'The record changed since the `If-Match` version was read: nothing was written. The answer holds the record as it is now.',
            { type: 'object', properties: { message: { type: 'string' }, current: record }, required: ['message', 'current'] },
            ETAG,
          ),
        },
      };
    case 'remove':
      return {
        ...base,
        summary: d.title ?? (d.recycle ? `Move ${article(label)} ${label} to the recycle bin` : `Delete ${article(label)} ${label}`),
        description: said('On success the dialog says', d.success),
        responses: {
          200: ok(d.recycle ? 'Moved to the recycle bin.' : 'Deleted.', {
            type: 'object',
            properties: { id: { type: 'string' } },
            required: ['id'],
          }),
          ...(registry.childrenOf(r.name).length ? { 409: answer('Conflict') } : {}),
        },
      };
    case 'action': {
      const doc = handlerDocOf(d.handler);
      return {
        ...base,
        summary: d.title ?? doc.summary ?? type,
        description: doc.description ?? said('On success the form says', d.success),
        parameters: doc.parameters,
        requestBody: body,
        responses: doc.responses,
      };
    }
  }
}

function operationSpec(r: ResourceDef, name: string, op: OperationDef, tag: string): CallSpec {
  const doc = handlerDocOf(op.handler);
  return {
    call: op.call,
    id: `${r.name}.${name}`,
    tag,
    access: op.access ?? r.access.write,
    summary: doc.summary ?? op.row?.label ?? name,
    description: doc.description,
    parameters: doc.parameters,
    requestBody: op.body ? jsonBody(jsonSchemaOf(op.body)) : doc.requestBody,
    responses: doc.responses,
  };
}

/** A resource's `defaultRecord`: reading and setting the record the setting names. */
function defaultRecordSpecs(r: ResourceDef, tag: string): CallSpec[] {
  const spec = r.defaultRecord;
  if (!spec) return [];
  const label = lower(r.label);
  const answered = ok(`The default ${label}’s id and record (nulls when none is set).`, {
    type: 'object',
    properties: { id: { type: ['string', 'null'] }, record: { anyOf: [refTo(r.name), { type: 'null' }] } },
    required: ['id', 'record'],
  });
  return [
    { call: spec.read, id: `${r.name}.defaultRecord`, tag, access: r.access.read, summary: `The default ${label}`, responses: { 200: answered } },
    {
      call: spec.write,
      id: `${r.name}.setDefaultRecord`,
      tag,
      access: spec.access ?? r.access.write,
      summary: `Make ${article(label)} ${label} the default`,
      // The route's own rule, so the document and the server cannot disagree.
      requestBody: jsonBody(jsonSchemaOf(defaultRecordSchema(r))),
      responses: { 200: answered },
    },
  ];
}

/** A list's `reorder`: every row's order field set at once. */
function reorderSpec(r: ResourceDef, tag: string): CallSpec[] {
  const spec = r.list?.reorder;
  if (!spec) return [];
  const { field } = spec;
  return [
    {
      call: spec.call,
      id: `${r.name}.reorder`,
      tag,
      access: r.access.write,
      summary: `Reorder ${lower(r.plural)}`,
      description: `Sets each listed ${lower(r.label)}’s ${field} in one transaction; none when an id is unknown.`,
      requestBody: jsonBody(jsonSchemaOf(reorderSchema(r))),
      responses: { 200: ok(`The ${lower(r.plural)} in their new order.`, { type: 'array', items: refTo(r.name) }) },
    },
  ];
}

/**
 * A resource's declared state transitions (src/manifest/states.ts): one route each, its body the
 * transition's required fields by the same rule the route judges them with.
 */
function transitionSpecs(r: ResourceDef, tag: string): CallSpec[] {
  return transitionsOf(r).map((ft) => {
    const { field, transition: t } = ft;
    const { resource, dialog } = transitionForm(r, ft);
    const from = t.from === '*' ? 'any state' : t.from.join(' or ');
    return {
      call: dialog.call,
      id: `${r.name}.transitions.${t.name}`,
      tag,
      access: t.roles,
      summary: `${t.label} (${field.name} → ${t.to})`,
      description: `Moves the ${lower(r.label)}’s ${field.name} from ${from} to ${t.to}; its body holds only the fields the transition requires.`,
      parameters: [IF_MATCH],
      requestBody: jsonBody(formJsonSchema(resource, dialog)),
      responses: {
        200: ok(`The updated ${lower(r.label)}.`, refTo(r.name), ETAG),
        409: answer('Conflict'),
        412: ok('The record changed since the `If-Match` version was read: nothing was written.', {
          type: 'object',
          properties: { message: { type: 'string' }, current: refTo(r.name) },
          required: ['message', 'current'],
        }),
      },
    };
  });
}

/** Every call a resource declares, described. */
function resourceSpecs(registry: Registry, r: ResourceDef): CallSpec[] {
  const tag = r.plural;
  return [
    ...Object.entries(r.reads).map(([name, read]) => readSpec(registry, r, name, read, tag)),
    ...Object.entries(r.dialogs).flatMap(([type, d]) => ('call' in d ? [dialogSpec(registry, r, type, d, tag)] : [])),
    ...Object.entries(r.operations).map(([name, op]) => operationSpec(r, name, op, tag)),
    ...defaultRecordSpecs(r, tag),
    ...reorderSpec(r, tag),
    ...transitionSpecs(r, tag),
  ];
}

/**
 * Reads declared with a trailing slash (`GET /social-links/`) answer without it too, unless another
 * call claims that path (the DSL writes some of the specification's reads both ways).
 */
function withoutTrailingSlash(spec: CallSpec, declared: Set<string>): CallSpec | undefined {
  const { method, path } = parseCall(spec.call);
  if (method !== 'GET' || path.length <= 1 || !path.endsWith('/')) return undefined;
  const call = `${method} ${path.slice(0, -1)}` as Call;
  if (declared.has(call)) return undefined;
  return { ...spec, call, id: `${spec.id}.withoutSlash`, summary: `${spec.summary} (also without the trailing slash)` };
}

/** The whole document. Pure: the same registry gives the same document. */
export function openApiDocument(registry: Registry, options: DocumentOptions = {}): OpenApiDocument {
  const doc: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Marketplace Admin API',
      version: options.version ?? '0.0.0',
      description:
        `Generated from the manifests (\`resources/*.ts\`). Sign in with \`POST /api/auth/login\`; the session cookie ` +
        `\`sid\` is sent with every other call. \`x-roles\` names the roles that may call each route. ` +
        `Read it as a page at \`${DOCS_PATH}\`; this document is \`${OPENAPI_PATH}\`.`,
    },
    tags: [],
    paths: {},
    components: {
      schemas: { Error: errorSchema },
      responses: { ...sharedResponses },
      securitySchemes: {
        sid: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session cookie `POST /api/auth/login` sets.' },
      },
    },
  };
  const add = (method: Method, path: string, operation: Operation) => {
    const item = (doc.paths[path] ??= {});
    if (item[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
    item[method] = operation;
    for (const name of operation.tags) if (!doc.tags.some((t) => t.name === name)) doc.tags.push({ name });
  };

  const specs = registry.resources.map((r) => ({ r, specs: resourceSpecs(registry, r) }));
  const declared = new Set(specs.flatMap(({ specs }) => specs.map((s) => s.call)));
  for (const { r, specs: list } of specs) {
    doc.components.schemas[r.name] = recordSchema(r);
    for (const spec of list) {
      const alias = withoutTrailingSlash(spec, declared);
      for (const s of alias ? [spec, alias] : [spec]) {
        const { method, path, operation } = manifestOperation(s);
        add(method, path, operation);
      }
    }
  }
  for (const { method, path, operation } of fixedRoutes()) add(method, path, operation);
  return doc;
}
