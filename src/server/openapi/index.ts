/**
 * The API described: `GET /api/openapi.json` (OpenAPI 3.1, generated from the manifests) and
 * `GET /api/docs` (the same, as a page), plus a record of every route the app registers, which the
 * tests hold the document to.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import { guard } from '../auth/guard.ts';
import { openApiDocument } from './document.ts';
import { DOCS_ACCESS, DOCS_PATH, OPENAPI_PATH } from './fixed-routes.ts';
import { DOCS_CSP, renderDocsPage } from './html.ts';

export { openApiDocument, DOCS_PATH, OPENAPI_PATH };
export { renderDocsPage, escapeHtml, describeSchema } from './html.ts';
export type { OpenApiDocument } from './types.ts';

/** A route as registered: its method and its URL in the router's syntax (`/categories/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app or any of its plugins since `recordRoutes` ran. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * Records every route registered from now on, in this app and in plugins registered after (an
 * `onRoute` hook is inherited by child scopes). Call it first, before any route exists.
 */
export function recordRoutes(app: FastifyInstance) {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
}

/**
 * The package's version, for the document's `info.version`: from the nearest package.json above this
 * file, which is src/server/openapi/ run from source and dist-server/chunks/ built (scripts/build-server.ts).
 */
function packageVersion(): string {
  try {
    for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir))
      if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    // unreadable: no version
  }
  return '0.0.0';
}

/**
 * Registers the two documentation routes. The document is made on first request and kept: the
 * manifests do not change while the server runs.
 */
export function registerDocs(app: FastifyInstance, registry: Registry) {
  let json: string | undefined;
  let page: string | undefined;
  const documentJson = () => (json ??= JSON.stringify(openApiDocument(registry, { version: packageVersion() })));
  const preHandler = guard(DOCS_ACCESS);

  app.get(OPENAPI_PATH, { preHandler }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(documentJson()),
  );
  app.get(DOCS_PATH, { preHandler }, async (_request, reply) => {
    page ??= renderDocsPage(JSON.parse(documentJson()), OPENAPI_PATH);
    return reply.type('text/html; charset=utf-8').header('Content-Security-Policy', DOCS_CSP).send(page);
  });
}
