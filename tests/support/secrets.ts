/** What no answer of the API may carry: a password or its hash, under any name. */
import { expect } from 'vitest';
import { DEMO_PASSWORD } from '../../src/server/seed/index.ts';

/** Fails when `body` holds a password field, a stored hash, or the demo accounts' password. */
export function expectNoSecrets(body: unknown) {
  const json = JSON.stringify(body ?? null);
  expect(json).not.toMatch(/passwordHash|scrypt\$|"password"/);
  expect(json).not.toContain(DEMO_PASSWORD);
}
