/**
 * The API document's entry for the front routes no manifest declares (the public sliders and video list), spread into
 * `fixedRoutes()` (src/server/openapi/fixed-routes.ts). The query's bounds come from the domain's own
 * constants, so the document and `parseSliderQuery` cannot disagree.
 */
import { MAX_SLIDER_PAGE, SLIDER_DEFAULTS, SLIDER_TYPES } from '../../domain/sliders.ts';
import type { FixedRoute } from '../openapi/types.ts';
import { answer } from '../openapi/schemas.ts';
import { SLIDERS_PATH } from './sliders.ts';
import { VIDEO_FETCH_MAX } from '../../domain/videos.ts';
import { VIDEOS_PATH } from './videos.ts';

const nullableText = { type: ['string', 'null'] };
const entry = {
  type: 'object',
  description:
    'One person, with §9’s fallbacks for missing values. Admins: name, country, image. Agents: name, image, country, city, district, agentId. ' +
    'Dealers: name, city, country, district, image, dealerId. Sellers: name (the shop name), shopname, country, image (the account’s).',
  properties: {
    name: { type: 'string' },
    shopname: { type: 'string' },
    country: { type: 'string' },
    city: { type: 'string' },
    district: { type: 'string' },
    image: nullableText,
    agentId: nullableText,
    dealerId: nullableText,
  },
  required: ['name', 'country', 'image'],
};

/** The front routes, described. */
export function frontRoutes(): FixedRoute[] {
  return [
    {
      method: 'get',
      path: SLIDERS_PATH,
      operation: {
        operationId: 'front.sliders',
        summary: 'People for the storefront’s sliders',
        description:
          'Public (no session): the storefront shows these to visitors. Only what a slider shows is answered, never an email or a phone.',
        tags: ['Storefront'],
        security: [],
        parameters: [
          { name: 'type', in: 'query', required: true, schema: { enum: [...SLIDER_TYPES] } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_SLIDER_PAGE, default: SLIDER_DEFAULTS.page } },
          {
            name: 'limit',
            in: 'query',
            description: `At most ${SLIDER_DEFAULTS.maxLimit}; a larger one is lowered to it.`,
            schema: { type: 'integer', minimum: 1, default: SLIDER_DEFAULTS.limit },
          },
        ],
        responses: {
          200: {
            description: 'One page of entries.',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { data: { type: 'array', items: entry } }, required: ['data'] },
              },
            },
          },
          400: answer('BadRequest'),
        },
      },
    },
    {
      method: 'get',
      path: VIDEOS_PATH,
      operation: {
        operationId: 'front.videos',
        summary: 'The storefront’s video list',
        description:
          `Public (no session). The stored list of the channel the site settings name; the first ask searches the provider ` +
          `(latest first, no live or upcoming items, at most ${VIDEO_FETCH_MAX}) and stores the answer. On any failure the list is empty and nothing is stored.`,
        tags: ['Storefront'],
        security: [],
        responses: {
          200: {
            description: 'The videos, latest first.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    data: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          id: { type: 'string' },
                          title: { type: 'string' },
                          description: { type: 'string' },
                          publishedAt: { type: 'string', format: 'date-time' },
                          thumbnail: nullableText,
                          channelTitle: { type: 'string' },
                        },
                        required: ['id', 'title', 'publishedAt'],
                      },
                    },
                  },
                  required: ['data'],
                },
              },
            },
          },
        },
      },
    },
  ];
}
