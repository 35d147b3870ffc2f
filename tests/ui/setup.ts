/**
 * The test DOMs (happy-dom; jsdom where a file asks for it) lack a few browser APIs MUI and react-admin
 * ask for; these stand-ins answer like a light desktop browser. Network stays real-shaped: tests
 * intercept `fetch` itself, nothing above it.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { SESSION_MARKER_COOKIE } from '../../src/domain/session-marker.ts';

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

// The form chunk is lazy (as in the browser); when the whole suite shares two cores its first load
// can take seconds, so waits allow for that instead of failing on a busy machine.
configure({ asyncUtilTimeout: 15_000 });

window.scrollTo = (() => {}) as typeof window.scrollTo;

// Each test starts as a browser that may hold a session (the server's readable marker, issue 51.8), so
// the client asks who is signed in and the test's answer decides; a 401 drops it, as in the browser.
beforeEach(() => {
  document.cookie = `${SESSION_MARKER_COOKIE}=1; Path=/`;
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  localStorage.clear();
});
