/**
 * The pages people reach before signing in, as routes outside the layout (react-admin renders those
 * whatever the auth state): each page's code loads when it is first opened.
 */
import { CustomRoutes, LoadingPage, reactRouterProvider } from 'react-admin';
import { SELF_SERVICE_ROUTES } from '../../../../resources/self-service-routes.ts';
import { deferred } from '../deferred.tsx';

// The router react-admin runs (its default): its routes must be its own Route elements.
const { Route } = reactRouterProvider;

const SignUpPage = deferred(() => import('./SignUpPage.tsx').then((m) => m.SignUpPage), <LoadingPage />);
const ForgotPasswordPage = deferred(() => import('./ForgotPasswordPage.tsx').then((m) => m.ForgotPasswordPage), <LoadingPage />);
const ResetPasswordPage = deferred(() => import('./ResetPasswordPage.tsx').then((m) => m.ResetPasswordPage), <LoadingPage />);

export const selfServiceRoutes = (
  <CustomRoutes noLayout key="self-service">
    <Route path={SELF_SERVICE_ROUTES.signUp} element={<SignUpPage />} />
    <Route path={SELF_SERVICE_ROUTES.forgot} element={<ForgotPasswordPage />} />
    <Route path={SELF_SERVICE_ROUTES.reset} element={<ResetPasswordPage />} />
  </CustomRoutes>
);
