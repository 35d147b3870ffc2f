/**
 * Issue 51 §6, "roles are not offered what the server will refuse", through the real HTTP API on every
 * engine this machine has: each role the admin's "Create user" form offers (read from the form's own
 * JSON Schema, as the browser draws it) is accepted by `POST /users/create`, and each role the form does
 * not offer is refused with 400 and the dialog's message under `role`, writing no account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../support/server.ts';
import { CREATE_USER_MESSAGES, users } from '../../resources/people.ts';
import { formJsonSchema, parseCall, ROLES, ruleOf, type ActionDialog } from '../../src/manifest/index.ts';

const createUser = users.dialogs.createUser as ActionDialog;
const PATH = parseCall(createUser.call).path;

/** The roles the Create user form's select offers: its JSON Schema's titled choices. */
const offered = () => {
  const role = (formJsonSchema(users, createUser).properties as Record<string, { oneOf?: { const: string }[] }>).role;
  return (role.oneOf ?? []).map((o) => o.const);
};

describe.each(engines)('Create user offers only the roles the server accepts there (%s)', (engine) => {
  let server: TestServer;
  let admin: string;
  const emailOf = (role: string) => `made-as-${role}@example.com`;
  const stored = (role: string) => server.db.selectFrom('users').select(['role']).where('email', '=', emailOf(role)).executeTakeFirst();

  beforeAll(async () => {
    server = await startTestServer({ engine });
    admin = await server.login('admin');
  });
  afterAll(() => server?.close());

  it('offers some roles and leaves some out (the checks below are not empty)', () => {
    expect(offered().length).toBeGreaterThan(0);
    expect(ROLES.filter((r) => !offered().includes(r)).length).toBeGreaterThan(0);
  });

  it('accepts each role the form offers', async () => {
    for (const role of offered()) {
      const made = await server.api('POST', PATH, { cookie: admin, body: { name: `Made ${role}`, email: emailOf(role), role } });
      expect(made.status, `${role}: ${JSON.stringify(made.body)}`).toBe(201);
      expect(made.body.role).toBe(role);
      expect(await stored(role)).toEqual({ role });
    }
  });

  it('refuses each role the form does not offer, with its message, and writes nothing', async () => {
    for (const role of ROLES.filter((r) => !offered().includes(r))) {
      const refused = await server.api('POST', PATH, { cookie: admin, body: { name: `Made ${role}`, email: emailOf(role), role } });
      expect(refused.status, role).toBe(400);
      expect(refused.body.errors, role).toEqual({ role: [CREATE_USER_MESSAGES.profileRole] });
      expect(await stored(role), role).toBeUndefined();
    }
  });

  it('answers a role no account has with the field’s own message', async () => {
    const odd = await server.api('POST', PATH, { cookie: admin, body: { name: 'Odd One', email: 'odd@example.com', role: 'owner' } });
    expect(odd.status).toBe(400);
    const own = ruleOf(users.fields.find((f) => f.name === 'role')!).safeParse('owner').error!.issues[0]!.message;
    expect(odd.body.errors.role).toEqual([own]);
    expect(own).not.toBe(CREATE_USER_MESSAGES.profileRole);
  });
});
