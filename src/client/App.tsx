/**
 * The admin: react-admin wired to the manifests. Resources, menu, lists and dialogs are generated.
 *
 * Composed from react-admin's parts (`AdminContext` + `CoreAdminUI`, as its docs show for `<Admin>`)
 * because `<Admin>` imports its default layout, login and error pages statically. Here the first
 * chunk holds only what the first screen needs (React, MUI's theme, react-admin's core, the
 * providers); the login page, the layout, the registry (with zod) and the list screens load when
 * first needed, and RJSF when a form dialog first opens.
 */
import { useState, type ReactElement, type ReactNode } from 'react';
import { CssBaseline } from '@mui/material';
import {
  AdminContext,
  CoreAdminUI,
  LoadingPage,
  defaultI18nProvider,
  localStorageStore,
  type AuthProvider,
  type DataProvider,
} from 'react-admin';
import { createAuthProvider } from './providers/auth.ts';
import { createDataProvider } from './providers/data.ts';
import { deferred } from './shell/deferred.tsx';
import { ShellLoading } from './shell/loading.tsx';
import { RegistryProvider } from './registry/context.tsx';
import { ToastNotifications } from './shell/Notifications.tsx';
import { darkTheme, lightTheme } from './shell/theme.ts';
import { ToastProvider } from './shell/toast.tsx';
import { selfServiceRoutes } from './shell/self-service/routes.tsx';
import { shopRoutes } from '../features/cart/routes.tsx';
import { supportRoutes } from '../features/support/client/routes.tsx';
import { captureReferral } from './areas/referral-storage.ts';
import { addressRouterProvider } from './dialogs/address-router.ts';

const loadRegistry = () => import('../../resources/index.ts').then((m) => m.registry);
const loadResources = () => import('./generate/resources.tsx');
const loadLayout = () => import('./shell/Layout.tsx');
const loadPages = () => import('./shell/pages.ts');
// The hand-written screens' routes: each role's area, the referral tree, the storefront people.
const loadScreenRoutes = () => import('./areas/routes.tsx');

const loadDashboard = () => import('./shell/Dashboard.tsx');

/**
 * The code the first screens after sign-in need (layout, registry, resources, landing page, list
 * screen), fetched and evaluated while the sign-in page is idle: the person types for seconds, and
 * then does not wait on a chain of chunks after pressing Sign in (issue 51.10). Loaded so, the layout
 * and the landing page render at once, and a role's resources are given synchronously: nothing
 * suspends on the way from Sign in to a list (each suspension costs React's 300 ms reveal throttle,
 * deferred.tsx). Not the form code (RJSF): that waits for the layout's own idle warm-up
 * (dialogs/warm-up.tsx).
 */
function warmSignedInCode() {
  const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
  idle(() => {
    for (const load of [AppLayout.preload, loadGenerate, Dashboard.preload]) void load().catch(() => {});
  });
}

const LoginPage = deferred(
  () =>
    import('./shell/LoginPage.tsx').then((m) => {
      warmSignedInCode();
      return m.LoginPage;
    }),
  <LoadingPage />,
);
// While the layout's code (and, below, the role's resources) load, the shell's shape with placeholders
// shows at once: react-admin's LoadingPage is blank for its first second (issue 51.8).
// The layout holds every screen that reads the manifests (menu, dashboard, lists, dialogs): it is given
// the registry through context (registry/context.tsx), with the registry's chunk loaded beside its own.
const AppLayout = deferred(
  () =>
    Promise.all([loadLayout(), loadRegistry()]).then(([m, registry]) => {
      const Layout = m.AppLayout;
      return function LayoutWithRegistry({ children }: { children: ReactNode }) {
        return (
          <RegistryProvider registry={registry}>
            <Layout>{children}</Layout>
          </RegistryProvider>
        );
      };
    }),
  <ShellLoading />,
);
const ErrorPage = deferred(() => loadPages().then((m) => m.ErrorPage));
// react-admin renders it without props (its `title` types disagree with CatchAllComponent).
const NotFound = deferred<object>(() => loadPages().then((m) => m.NotFound));
const AccessDenied = deferred(() => loadPages().then((m) => m.AccessDenied));
const AuthenticationError = deferred(() => loadPages().then((m) => m.AuthenticationError));
// The landing page after sign-in (counts per list, recent changes): its code loads with it.
const Dashboard = deferred(() => loadDashboard().then((m) => m.Dashboard), <ShellLoading />);

let generate: ((role: unknown) => ReactElement[]) | undefined;

/** The resources' and the hand-written screens' code (with the list screen's), then `generate` is set. */
function loadGenerate(): Promise<unknown> {
  return Promise.all([loadResources(), loadRegistry(), loadScreenRoutes()]).then(async ([m, registry, screens]) => {
    await m.preloadListScreen();
    generate ??= (r) => [...m.generatedResources(registry, r), screens.screenRoutes()];
  });
}

/**
 * The resources a role may see, and the routes of the hand-written screens. Their code is fetched
 * once a role is known, the layout's beside it (or earlier: warmSignedInCode).
 * Once loaded the answer is synchronous again: react-admin swaps the layout for its loading page
 * while a promised answer is pending, which must happen once at most.
 */
function resourcesFor(role: unknown): ReactElement[] | Promise<ReactElement[]> {
  if (!role) return [];
  if (generate) return generate(role);
  // The layout's and the landing page's code beside the resources', not each after the one before renders.
  void AppLayout.preload().catch(() => {});
  void Dashboard.preload().catch(() => {});
  return loadGenerate().then(() => generate!(role));
}

const defaults = { dataProvider: createDataProvider(loadRegistry), authProvider: createAuthProvider() };
const store = localStorageStore();

interface AppProps {
  dataProvider?: DataProvider;
  authProvider?: AuthProvider;
}

/** Providers are parameters so a test can start from a fresh session cache; the app uses the defaults. */
export function App({ dataProvider = defaults.dataProvider, authProvider = defaults.authProvider }: AppProps) {
  // A referral link's code (`?bref=`) is kept before anyone signs in; the layout sends it after.
  useState(() => captureReferral());
  return (
    <ToastProvider>
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={defaultI18nProvider}
        store={store}
        // A list's own writes to the URL keep the dialog address it holds (address-router.ts).
        routerProvider={addressRouterProvider}
        theme={lightTheme}
        darkTheme={darkTheme}
      >
        <CssBaseline enableColorScheme>
          <CoreAdminUI
            requireAuth
            disableTelemetry
            layout={AppLayout}
            dashboard={Dashboard}
            loginPage={LoginPage}
            loading={ShellLoading}
            error={ErrorPage}
            catchAll={NotFound}
            accessDenied={AccessDenied}
            authenticationError={AuthenticationError}
          >
            {/* Sign-up and password reset: outside the layout, open to whoever is not signed in. */}
            {selfServiceRoutes}
            {/* The shop (catalogue, search results, cart): public, outside the layout. */}
            {shopRoutes}
            {/* A support request's live thread, a representative's page: in the layout (the session's socket). */}
            {supportRoutes}
            {resourcesFor}
          </CoreAdminUI>
          <ToastNotifications />
        </CssBaseline>
      </AdminContext>
    </ToastProvider>
  );
}
