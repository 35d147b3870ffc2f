/**
 * Spec §2: after a support chat starts, the page goes where the answer's `redirectUrl` says. Only a
 * path of this app is followed: another site's address in an answer never takes the user away.
 */
import { describe, expect, it } from 'vitest';
import { redirectOf } from '../../src/client/dialogs/outcome.ts';
import { memberPath, requestPath } from '../../src/features/support/contract.ts';

describe('redirectUrl', () => {
  it('follows a path of this app, as the support calls answer it', () => {
    expect(redirectOf({ redirectUrl: requestPath('a'.repeat(24)) })).toBe(`/support/requests/${'a'.repeat(24)}`);
    expect(redirectOf({ redirectUrl: memberPath('m1', 'c1') })).toBe('/support-team/m1?chat=c1');
  });

  it('follows nothing else', () => {
    for (const redirectUrl of ['//evil.example/x', 'https://evil.example', 'javascript:alert(1)', '/\\evil.example', '', 5, null])
      expect(redirectOf({ redirectUrl }), String(redirectUrl)).toBeUndefined();
    expect(redirectOf(undefined)).toBeUndefined();
    expect(redirectOf({ id: 'x' })).toBeUndefined();
  });
});
