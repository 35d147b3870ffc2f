/**
 * A component whose code loads the first time it renders, behind its own Suspense boundary, so it
 * can stand wherever react-admin expects a component (login page, layout, error pages).
 *
 * Its code may be fetched ahead (`preload()`, while the person does something else): then it renders
 * at once, without suspending. That matters beyond the fetch: React reveals content that suspended at
 * most every 300 ms after a fallback was shown (its "fallback throttle"), so a lazy component whose
 * code was already there still cost the sign-in a blank 300 ms (issue 51.10). The choice is made once
 * per mounted instance, so an instance that did suspend keeps its lazy element (no remount).
 */
import { createElement, lazy, Suspense, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';

/** A component that loads its code when first needed, or before (`preload`). */
export interface Preloadable<P extends object> {
  (props: P): ReactElement;
  /** Fetches and evaluates the code now; the next instance renders without suspending. */
  preload(): Promise<unknown>;
}

/**
 * The component `load` gives, loaded on first render or on `preload()`: once loaded, rendered directly;
 * before, as a lazy component that suspends to the nearest boundary (the caller places it).
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // A failed fetch (a new deployment, the network) may be tried again by the next render.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function Preloaded(props: P) {
    // Decided when the instance mounts: switching types later would remount what it holds.
    const [direct] = useState(() => loaded);
    return createElement((direct ?? Lazy) as ComponentType<P>, props);
  }
  return Object.assign(Preloaded, { preload: start });
}

export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): Preloadable<P> {
  const Inner = preloadable(load);
  function Deferred(props: P) {
    return <Suspense fallback={fallback}>{createElement(Inner as ComponentType<P>, props)}</Suspense>;
  }
  return Object.assign(Deferred, { preload: Inner.preload });
}
