/**
 * The storefront's and referrals' server parts. Importing this module registers the named handlers of
 * resources/referrals.ts (so app.ts imports it before the manifest routes); `registerFrontRoutes` adds
 * the routes no manifest declares (the public sliders and video list).
 */
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../manifest/index.ts';
import type { Db } from '../db/types.ts';
import './referrals.ts';
import { registerSliders } from './sliders.ts';
import { registerVideos } from './videos.ts';
import { registerShop } from './shop.ts';

export function registerFrontRoutes(app: FastifyInstance, db: Db, registry: Registry) {
  registerSliders(app, db, registry);
  registerVideos(app, db, registry);
  // The shop's public reads of approved products (the catalogue, the search modal's results).
  registerShop(app, db, registry);
}
