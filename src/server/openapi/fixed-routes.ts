/**
 * The routes no manifest declares: signing in and out (`src/server/auth/routes.ts`), stored files
 * (`src/server/uploads/index.ts`) and this documentation itself. Each is described here once; the
 * request schemas come from where the routes take them (the sign-in body is the route's own zod rule).
 */
import { ASSETS_PATH, FILE_TYPES, type Access } from '../../manifest/index.ts';
import { credentials } from '../auth/routes.ts';
import { SESSION_COOKIE, SESSION_DAYS } from '../auth/sessions.ts';
import { newPassword, PASSWORD_PATH } from '../auth/password-change.ts';
import { MUST_CHANGE_MESSAGE } from '../auth/account-state.ts';
import { RESET_PATH, RESET_REQUEST_PATH, SELF_SERVICE_MESSAGES, SIGN_UP_PATH, resetBody, resetRequestBody, signUpBody } from '../../../resources/self-service.ts';
import { DEFAULT_RESET_MINUTES } from '../auth/self-service-config.ts';
import { answer, jsonSchemaOf, refTo, rolesOf } from './schemas.ts';
import type { FixedRoute } from './types.ts';
import { frontRoutes } from '../front/docs.ts';
import { shopRoutes } from '../front/shop.ts';

/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = '/api/openapi.json';
/** Where the document is rendered for a person. */
export const DOCS_PATH = '/api/docs';
/** Who may read the documentation: like every other API route, it needs a session. */
export const DOCS_ACCESS: Access = 'signedIn';

// The page's sections for these routes (each resource's routes are under its plural label).
const AUTH_TAG = 'Sign-in';
const FILES_TAG = 'Stored files';
const DOCS_TAG = 'API documentation';

/** A route described by hand: its method, its path in OpenAPI syntax, and the operation. */
const session = [{ sid: [] }];

/** The routes outside the manifests, described. */
export function fixedRoutes(): FixedRoute[] {
  return [
    {
      method: 'post',
      path: '/api/auth/login',
      operation: {
        operationId: 'auth.login',
        summary: 'Sign in',
        description:
          `Answers the user and sets the httpOnly session cookie \`${SESSION_COOKIE}\` (valid ${SESSION_DAYS} days). ` +
          'Wrong passwords are counted per account and per address; past a few, each attempt is held for its turn ' +
          '(a delay that doubles), and only a flood faster than that is refused (429, `Retry-After`).',
        tags: [AUTH_TAG],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(credentials) } } },
        responses: {
          200: {
            description: 'Signed in.',
            headers: { 'Set-Cookie': { description: `The session cookie \`${SESSION_COOKIE}\`.`, schema: { type: 'string' } } },
            content: { 'application/json': { schema: refTo('users') } },
          },
          400: answer('BadRequest'),
          401: { description: 'Invalid email or password.', content: { 'application/json': { schema: refTo('Error') } } },
          403: answer('Forbidden'),
          429: answer('TooManyRequests'),
        },
      },
    },
    {
      method: 'post',
      path: '/api/auth/logout',
      operation: {
        operationId: 'auth.logout',
        summary: 'Sign out',
        description: 'Ends the session the cookie names (if any) and clears the cookie.',
        tags: [AUTH_TAG],
        security: [],
        responses: { 204: { description: 'Signed out.' }, 403: answer('Forbidden') },
      },
    },
    {
      method: 'post',
      path: PASSWORD_PATH,
      operation: {
        operationId: 'auth.password',
        summary: 'Choose a new password',
        description:
          'Sets the signed-in account’s password (6 to 12 characters). An account signed in with a one-time password must ' +
          `call this before anything else (every other call answers 403 '${MUST_CHANGE_MESSAGE}'); any other account gives ` +
          '`currentPassword` too. Every session of the account ends and a new session cookie is set.',
        tags: [AUTH_TAG],
        security: session,
        'x-roles': rolesOf('signedIn'),
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(newPassword) } } },
        responses: {
          200: {
            description: 'Changed; signed in afresh.',
            headers: { 'Set-Cookie': { description: `The new session cookie \`${SESSION_COOKIE}\`.`, schema: { type: 'string' } } },
            content: { 'application/json': { schema: refTo('users') } },
          },
          400: answer('BadRequest'),
          401: answer('Unauthorized'),
          403: answer('Forbidden'),
          429: answer('TooManyRequests'),
        },
      },
    },
    ...selfServiceRoutes(),
    {
      method: 'get',
      path: `${ASSETS_PATH}/{path}`,
      operation: {
        operationId: 'files.read',
        summary: 'A stored file',
        description: 'Uploaded files are public and never change; images are shown inline, documents downloaded.',
        tags: [FILES_TAG],
        security: [],
        parameters: [
          {
            name: 'path',
            in: 'path',
            required: true,
            description: 'The stored path, slashes included (`banners/<24 hex>.png`).',
            schema: { type: 'string' },
          },
          {
            name: 'download',
            in: 'query',
            description: '`1`: sent as an attachment under its uploaded name.',
            schema: { enum: ['1'] },
          },
        ],
        responses: {
          200: {
            description: 'The file.',
            content: Object.fromEntries(Object.values(FILE_TYPES).map((t) => [t.mime, { schema: { type: 'string', contentMediaType: t.mime } }])),
          },
          404: answer('NotFound'),
        },
      },
    },
    {
      method: 'get',
      path: OPENAPI_PATH,
      operation: {
        operationId: 'docs.openapi',
        summary: 'This API, as an OpenAPI 3.1 document',
        tags: [DOCS_TAG],
        security: session,
        'x-roles': rolesOf(DOCS_ACCESS),
        responses: {
          200: { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } },
          401: answer('Unauthorized'),
        },
      },
    },
    {
      method: 'get',
      path: DOCS_PATH,
      operation: {
        operationId: 'docs.page',
        summary: 'This API, as a page to read',
        tags: [DOCS_TAG],
        security: session,
        'x-roles': rolesOf(DOCS_ACCESS),
        responses: {
          200: { description: 'The page.', content: { 'text/html': { schema: { type: 'string' } } } },
          401: answer('Unauthorized'),
        },
      },
    },
    ...frontRoutes(),
    ...shopRoutes(),
  ];
}

/** Signing up and resetting a password (src/server/auth/sign-up.ts, password-reset.ts): no session needed. */
function selfServiceRoutes(): FixedRoute[] {
  const message = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] };
  return [
    {
      method: 'post',
      path: SIGN_UP_PATH,
      operation: {
        operationId: 'auth.signup',
        summary: 'Sign up as a buyer',
        description:
          'Makes a buyer’s account (role `user`) with the password given; `bhrfc`, a referral code, records who referred it. ' +
          'No session is started: sign in with the same email and password. An address may make a few accounts an hour (429 after).',
        tags: [AUTH_TAG],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(signUpBody) } } },
        responses: {
          201: { description: 'Made.', content: { 'application/json': { schema: refTo('users') } } },
          400: answer('BadRequest'),
          409: answer('Conflict'),
          429: answer('TooManyRequests'),
        },
      },
    },
    {
      method: 'post',
      path: RESET_REQUEST_PATH,
      operation: {
        operationId: 'auth.forgotPassword',
        summary: 'Ask for a password reset link',
        description:
          `Emails the account with this email a link that sets a new password once, within ${DEFAULT_RESET_MINUTES} minutes ` +
          '(`PASSWORD_RESET_MINUTES`). The answer is the same whether or not an account has the email. Limited per email and per address.',
        tags: [AUTH_TAG],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(resetRequestBody) } } },
        responses: {
          202: { description: SELF_SERVICE_MESSAGES.resetRequested, content: { 'application/json': { schema: message } } },
          400: answer('BadRequest'),
          429: answer('TooManyRequests'),
        },
      },
    },
    {
      method: 'post',
      path: RESET_PATH,
      operation: {
        operationId: 'auth.resetPassword',
        summary: 'Set a new password with a reset link',
        description:
          'Uses the link’s token up and sets the password (6 to 12 characters); every session and every other link of the account ends. ' +
          `A used, expired or unknown token: 400 '${SELF_SERVICE_MESSAGES.badToken}'.`,
        tags: [AUTH_TAG],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(resetBody) } } },
        responses: {
          200: { description: SELF_SERVICE_MESSAGES.resetDone, content: { 'application/json': { schema: message } } },
          400: answer('BadRequest'),
        },
      },
    },
  ];
}
