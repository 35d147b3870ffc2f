/** The app shell: react-admin's layout with the grouped menu, under the dialog host. */
import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { GroupedMenu } from './Menu.tsx';

export function AppLayout({ children }: { children: ReactNode }) {
  // The host wraps the whole layout so the app bar (search, bell) can open dialogs too.
  return (
    <DialogHost>
      <Layout menu={GroupedMenu}>{children}</Layout>
    </DialogHost>
  );
}
