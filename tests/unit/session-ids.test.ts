/**
 * A session's stored id is the SHA-256 of its token (sessions.ts), whether the token's digest was just
 * made or kept from an earlier request: the kept one is the same text, and a token of another length
 * (a made-up cookie) is hashed each time rather than kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionIdOf } from '../../src/server/auth/sessions.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

describe('session ids', () => {
  it('are the SHA-256 of the token, the first time and every time after', () => {
    const tokens = Array.from({ length: 50 }, () => randomBytes(32).toString('base64url'));
    expect(tokens.every((t) => t.length === 43)).toBe(true);
    for (let round = 0; round < 3; round++) for (const t of tokens) expect(sessionIdOf(t)).toBe(sha256(t));
  });

  it('tell tokens apart that differ in one character', () => {
    const token = randomBytes(32).toString('base64url');
    const other = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    expect(sessionIdOf(token)).toBe(sha256(token));
    expect(sessionIdOf(other)).toBe(sha256(other));
    expect(sessionIdOf(token)).not.toBe(sessionIdOf(other));
  });

  it('are right for tokens of any other length, however long', () => {
    for (const t of ['', 'x', 'a'.repeat(42), 'a'.repeat(44), 'z'.repeat(16_000)]) {
      expect(sessionIdOf(t)).toBe(sha256(t));
      expect(sessionIdOf(t)).toBe(sha256(t));
    }
  });
});
