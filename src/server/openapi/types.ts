/**
 * The parts of an OpenAPI 3.1 document this generator writes. Only what we emit is typed; schemas are
 * JSON Schema 2020-12 objects (OpenAPI 3.1's own dialect), as zod's `z.toJSONSchema` produces them.
 */

/** A JSON Schema (2020-12), or a `$ref` to one under `#/components/schemas`. */
export type JsonSchema = Record<string, unknown>;

/** A `$ref` to a reusable component (`#/components/responses/NotFound`). */
export interface Ref {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  /** Either `schema` or `content` (a JSON-encoded query value, as `sort=["name","ASC"]`). */
  schema?: JsonSchema;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface MediaType {
  schema?: JsonSchema;
}

export interface Header {
  description?: string;
  schema: JsonSchema;
}

export interface Response {
  description: string;
  headers?: Record<string, Header>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  required?: boolean;
  description?: string;
  content: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, Response | Ref>;
  /** `[]`: anyone may call it; `[{ sid: [] }]`: a session cookie is needed. */
  security: Record<string, string[]>[];
  /** The roles the manifest lets call it (every role for `'signedIn'`); absent on public routes. */
  'x-roles'?: string[];
  /** The dialog type name (`createCategory`) whose form sends this call, when one does. */
  'x-dialog'?: string;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type PathItem = Partial<Record<Method, Operation>>;

export interface Tag {
  name: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  tags: Tag[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

/** A route outside the manifests, described (fixed-routes.ts, front/docs.ts). */
export interface FixedRoute {
  method: Method;
  path: string;
  operation: Operation;
}
