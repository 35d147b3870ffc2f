/**
 * Named server handlers for `action` dialogs, whose calls are more than a create, update or delete.
 * Manifests name them; features register them here.
 */
import type { FastifyRequest } from 'fastify';
import type { Registry, ResourceDef } from '../../manifest/index.ts';
import type { Db } from '../db/repository.ts';

export interface HandlerContext {
  db: Db;
  registry: Registry;
  resource: ResourceDef;
  request: FastifyRequest;
  /** The body, already validated by the dialog's schema. */
  body: Record<string, unknown>;
  /**
   * Marks a table as written, so cached reads of it are dropped. The dialog's own resource is marked
   * after every call; a handler that writes other tables must mark them.
   */
  invalidate(table: string): void;
}

export type Handlers = Record<string, (context: HandlerContext) => Promise<unknown>>;

export const handlers: Handlers = {};
