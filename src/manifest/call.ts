/** Parsing and filling the `'METHOD /path/{param}'` calls manifests declare. */
import type { Call } from './types.ts';

/** The base of the admin paths a manifest declares (spec §7: "Paths marked with a base"). */
export const API_BASE = '/api/admin/v1';

/**
 * The URL of a declared path. Paths are relative to API_BASE, except those the specification puts
 * "under /api (not the admin base)", which are declared with their `/api/` prefix.
 */
export function urlOf(path: string): string {
  return path.startsWith('/api/') ? path : API_BASE + path;
}

export interface ParsedCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as declared, relative to the base: `/categories/{id}`. */
  path: string;
  /** The names of the path parameters, in order. */
  params: string[];
}

export function parseCall(call: Call): ParsedCall {
  const match = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(call);
  if (!match) throw new Error(`Malformed call '${call}': expected 'METHOD /path'`);
  const path = match[2].replace(/\?.*$/, '');
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return { method: match[1] as ParsedCall['method'], path, params };
}

/** The path with its `{param}`s filled from `values`, each URI-encoded. Throws when one is missing. */
export function fillPath(path: string, values: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter '${name}'`);
    return encodeURIComponent(String(value));
  });
}

/** The path in the router's syntax (`/categories/:id`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
