/**
 * A component whose code loads the first time it renders, behind its own Suspense boundary, so it
 * can stand wherever react-admin expects a component (login page, layout, error pages).
 */
import { lazy, Suspense, type ComponentType, type ReactElement, type ReactNode } from 'react';

export function deferred<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): (props: P) => ReactElement {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function Deferred(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Deferred;
}
