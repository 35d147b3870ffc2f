/**
 * Web Push subscriptions (spec §3 "Push subscription payload": subscription, userAgent, endpoint; §7 the
 * three push calls). A browser's subscription belongs to the user who saved it; the server sends that
 * user's notifications to it (src/features/push/server). No list, no dialog: only the calls below and
 * the hand-written toggle and banner (src/features/push/client) use it.
 */
import { z } from 'zod';
import { defineResource, field, operation } from '../src/manifest/index.ts';

/** The longest endpoint kept: push services' URLs are a few hundred characters (Mozilla's are the longest). */
export const MAX_ENDPOINT = 2000;

/** What the push calls answer when a body or an endpoint is refused (400 under `endpoint`) or not found (404). */
export const PUSH_SERVER_MESSAGES = {
  endpointMismatch: "endpoint must be the subscription's endpoint.",
  notHttps: 'The push endpoint must be an https URL on port 443.',
  notPublic: 'The push endpoint must be on a public host.',
  unresolved: "The push endpoint's host could not be resolved.",
  badKeys: "The subscription's keys are not a browser's push keys.",
  notFound: 'Push subscription not found.',
  /** 409: the endpoint is another account's, and the keys sent are not its browser's. */
  taken: 'This push endpoint is registered to another account.',
} as const;

/** Base64url text decoding to exactly `bytes` bytes (the browser's P-256 key: 65; its auth secret: 16). */
const base64url = (bytes: number) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+=*$/, PUSH_SERVER_MESSAGES.badKeys)
    .refine((v) => Buffer.from(v, 'base64url').length === bytes, PUSH_SERVER_MESSAGES.badKeys);

/** `PushSubscription.toJSON()` as a browser gives it. */
export const browserSubscription = z.strictObject({
  endpoint: z.string().min(1).max(MAX_ENDPOINT),
  keys: z.strictObject({ p256dh: base64url(65), auth: base64url(16) }),
  // A time in ms (a DOMHighResTimeStamp: not always whole), or null for none.
  expirationTime: z.number().nonnegative().nullable().optional(),
});

/** `POST /api/notifications/push/subscribe`: the endpoint is sent twice (spec §7); both must agree. */
export const subscribeBody = z
  .strictObject({
    subscription: browserSubscription,
    userAgent: z.string().max(1000),
    endpoint: z.string().min(1).max(MAX_ENDPOINT),
  })
  .refine((b) => b.endpoint === b.subscription.endpoint, { message: PUSH_SERVER_MESSAGES.endpointMismatch, path: ['endpoint'] });

/** `DELETE /api/notifications/push/subscribe`. */
export const unsubscribeBody = z.strictObject({ endpoint: z.string().min(1).max(MAX_ENDPOINT) });

export const PUSH_SUBSCRIPTIONS = 'pushSubscriptions';

export const pushSubscriptions = defineResource({
  name: PUSH_SUBSCRIPTIONS,
  label: 'Push subscription payload',
  plural: 'Push subscriptions',
  title: 'endpoint',
  // Nobody reads the table through the API: only the calls below, each for the caller's own rows.
  access: { read: [], write: 'signedIn' },
  fields: [
    // `browserSubscription` as JSON: what web-push needs to encrypt for this browser.
    field.textarea('subscription', { maxLength: 4000 }),
    field.text('userAgent', { maxLength: 1000 }),
    field.textarea('endpoint', { maxLength: MAX_ENDPOINT }),
    // An endpoint may be longer than an index takes: its SHA-256 is the unique key upserts go by.
    field.text('endpointKey', { unique: true }),
    // The owner; indexed (filterable) because every notification looks its user's subscriptions up.
    field.text('userId', { filterable: true }),
    // The session it was saved in (its stored id): signing out forgets the subscription, so a shared
    // browser does not show the next person the last one's notifications. The app saves it again at
    // each load of a signed-in page (usePush.tsx), which binds it to the session of the day.
    field.text('sessionId', { filterable: true }),
  ],
  operations: {
    vapidPublicKey: operation('GET /api/notifications/push/vapid-public-key', 'pushVapidPublicKey', { access: 'signedIn' }),
    subscribe: operation('POST /api/notifications/push/subscribe', 'pushSubscribe', { access: 'signedIn', body: subscribeBody }),
    unsubscribe: operation('DELETE /api/notifications/push/subscribe', 'pushUnsubscribe', { access: 'signedIn', body: unsubscribeBody }),
  },
});
