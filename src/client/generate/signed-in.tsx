/**
 * Who is signed in (role and account id), read once for a whole list (issue 51.10). react-admin's
 * `usePermissions` and `useGetIdentity` are each a react-query observer: asked in every row's actions
 * and reference cells, a page of 25 rows made a hundred and more observers, each updated and each
 * notifying at every new page. The list screen asks once (`SignedInProvider`) and its rows read the
 * answer from context (`useSignedIn`).
 */
import { createContext, useContext, useMemo, type ComponentType, type ReactNode } from 'react';
import { useGetIdentity, usePermissions, type Identifier } from 'react-admin';

export interface SignedIn {
  /** The role (react-admin's permissions); undefined until known. */
  role: unknown;
  /** The account's id; undefined until known. */
  id: Identifier | undefined;
}

const SignedInContext = createContext<SignedIn | null>(null);

/** Asks who is signed in, once, for what it wraps. */
export function SignedInProvider({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const id = identity?.id;
  const value = useMemo<SignedIn>(() => ({ role: permissions, id }), [permissions, id]);
  return <SignedInContext.Provider value={value}>{children}</SignedInContext.Provider>;
}

/** Who is signed in, as the nearest `SignedInProvider` read it (a component using it is given one by `withSignedIn`). */
export function useSignedIn(): SignedIn {
  const signedIn = useContext(SignedInContext);
  if (!signedIn) throw new Error('useSignedIn is used outside a SignedInProvider (wrap the component in withSignedIn).');
  return signedIn;
}

/**
 * The component, given a `SignedInProvider` of its own where none is above it (a details dialog, a
 * screen test): in a list it reads the list's, and asks nothing itself.
 */
export function withSignedIn<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithSignedIn(props: P) {
    const signedIn = useContext(SignedInContext);
    return signedIn ? (
      <Component {...props} />
    ) : (
      <SignedInProvider>
        <Component {...props} />
      </SignedInProvider>
    );
  }
  WithSignedIn.displayName = `withSignedIn(${Component.displayName ?? Component.name})`;
  return WithSignedIn;
}
