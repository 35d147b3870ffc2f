/**
 * The app shell: react-admin's layout with the grouped menu, under the dialog host. The screen's title
 * is its level-one heading (react-admin renders it as a plain span), and the account menu is ours
 * (AccountMenu.tsx says why).
 */
import type { ReactNode } from 'react';
import { AppBar, Layout, TitlePortal, type AppBarProps } from 'react-admin';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { GroupedMenu } from './Menu.tsx';

function AppTitleBar(props: AppBarProps) {
  return (
    <AppBar {...props} userMenu={<AccountMenu />}>
      <TitlePortal component="h1" variant="h6" />
    </AppBar>
  );
}

export function AppLayout({ children }: { children: ReactNode }) {
  // The host wraps the whole layout so the app bar (search, bell) can open dialogs too.
  return (
    <DialogHost>
      <Layout menu={GroupedMenu} appBar={AppTitleBar}>
        {children}
      </Layout>
    </DialogHost>
  );
}
