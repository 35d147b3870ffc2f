/** What the app shell mounts around its layout: the push state of the signed-in user (the banner and the toggle read it). */
import type { ReactNode } from 'react';
import { useGetIdentity } from 'react-admin';
import { PushProvider } from './usePush.tsx';

export function PushOptIn({ children }: { children: ReactNode }) {
  const { identity } = useGetIdentity();
  return (
    <PushProvider signedIn={!!identity?.id}>
      {children}
    </PushProvider>
  );
}
