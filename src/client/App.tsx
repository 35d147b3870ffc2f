/** The admin: react-admin wired to the manifests. Resources, menu, lists and dialogs are generated. */
import { Admin, type AuthProvider, type DataProvider } from 'react-admin';
import { registry } from '../../resources/index.ts';
import { generatedResources } from './generate/resources.tsx';
import { createAuthProvider } from './providers/auth.ts';
import { createDataProvider } from './providers/data.ts';
import { AppLayout } from './shell/Layout.tsx';
import { LoginPage } from './shell/LoginPage.tsx';
import { ToastNotifications } from './shell/Notifications.tsx';
import { darkTheme, lightTheme } from './shell/theme.ts';
import { ToastProvider } from './shell/toast.tsx';

const defaults = { dataProvider: createDataProvider(registry), authProvider: createAuthProvider() };

interface AppProps {
  dataProvider?: DataProvider;
  authProvider?: AuthProvider;
}

/** Providers are parameters so a test can start from a fresh session cache; the app uses the defaults. */
export function App({ dataProvider = defaults.dataProvider, authProvider = defaults.authProvider }: AppProps) {
  return (
    <ToastProvider>
      <Admin
        dataProvider={dataProvider}
        authProvider={authProvider}
        requireAuth
        layout={AppLayout}
        loginPage={LoginPage}
        notification={ToastNotifications}
        theme={lightTheme}
        darkTheme={darkTheme}
        disableTelemetry
      >
        {(role: unknown) => generatedResources(registry, role)}
      </Admin>
    </ToastProvider>
  );
}
