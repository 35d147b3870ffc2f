/**
 * The app shell: react-admin's layout with the grouped menu, under the dialog host. The screen's title
 * is its level-one heading (react-admin renders it as a plain span), and the account menu is ours
 * (AccountMenu.tsx says why).
 */
import type { ReactNode } from 'react';
import { AppBar, Layout, TitlePortal, type AppBarProps } from 'react-admin';
import { DialogHost } from '../dialogs/DialogHost.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { PasswordGate } from './ChoosePassword.tsx';
import { GroupedMenu } from './Menu.tsx';
import { AffiliateSender } from '../areas/AffiliateSender.tsx';
import { NotificationBell } from '../../features/notifications/client/NotificationBell.tsx';
import { CartBadge } from '../../features/cart/CartBadge.tsx';
import { deferred } from './deferred.tsx';
import { NotificationSocketProvider } from '../../features/notifications/client/SocketProvider.tsx';
import { PushOptIn } from '../../features/push/client/PushOptIn.tsx';
import { PushBanner } from '../../features/push/client/PushBanner.tsx';
import { ShellContent } from './loading.tsx';

/** Spec §2's floating support-team widget; its code loads after the screen's. */
const SupportWidget = deferred(() => import('../../features/support/client/SupportWidget.tsx').then((m) => m.SupportWidget));

function AppTitleBar(props: AppBarProps) {
  return (
    <AppBar {...props} userMenu={<AccountMenu />}>
      <TitlePortal component="h1" variant="h6" />
      <CartBadge />
      <NotificationBell />
    </AppBar>
  );
}

export function AppLayout({ children }: { children: ReactNode }) {
  // The host wraps the whole layout so the app bar (search, bell) can open dialogs too. The gate stands
  // before all of it: an account with a one-time password chooses its own first (ChoosePassword.tsx).
  return (
    <PasswordGate>
      {/* One realtime socket for the signed-in session; the layout goes at sign-out and closes it. */}
      <NotificationSocketProvider>
        {/* Web Push: its state, for the account menu's toggle and the opt-in banner. */}
        <PushOptIn>
          <DialogHost>
            {/* The content may shrink below what its widest row asks: a wide list scrolls inside its own
                table, never the page sideways (a 640 px window, or 200 % zoom, beside the open menu). */}
            <Layout menu={GroupedMenu} appBar={AppTitleBar} sx={{ minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 } }}>
              {/* A referral link's kept code is sent once the account is known (areas/affiliate.ts). */}
              <AffiliateSender />
              {/* A screen loading in here shows its content's placeholder only (loading.tsx). */}
              <ShellContent>{children}</ShellContent>
              {/* Spec §4: the push opt-in banner. It floats, so nothing moves when it comes; it stands
                  after the content so the room it keeps free below the last rows comes last. */}
              <PushBanner />
              <SupportWidget />
            </Layout>
          </DialogHost>
        </PushOptIn>
      </NotificationSocketProvider>
    </PasswordGate>
  );
}
