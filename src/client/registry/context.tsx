/**
 * The registry (every resource and dialog the manifests declare) as the screens receive it: through
 * React context, provided once by the app (App.tsx, when the registry's chunk has loaded) or by a test,
 * never imported as a module singleton. So a screen works with whatever registry it is given (a test's
 * fixture resources included), and the client's code does not import the manifests that import the
 * client's hand-written components back (scripts/check-imports.ts: no import circle).
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { Registry } from '../../manifest/index.ts';

const RegistryContext = createContext<Registry | undefined>(undefined);

export function RegistryProvider({ registry, children }: { registry: Registry; children?: ReactNode }) {
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

/** The registry the app was given; a screen rendered outside a `RegistryProvider` is a programming error. */
export function useRegistry(): Registry {
  const registry = useContext(RegistryContext);
  if (!registry) throw new Error('useRegistry: no RegistryProvider above this component (App.tsx provides it; tests render through tests/ui/harness.tsx)');
  return registry;
}
