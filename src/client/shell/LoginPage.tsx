/**
 * react-admin's login screen; the identifier is an email (the API's `email`, react-admin's `username`).
 * The page is the document's main landmark and says what it is in a level-one heading.
 */
import { Box, Typography } from '@mui/material';
import { Link, Login, LoginForm, PasswordInput, TextInput, required } from 'react-admin';
import { SELF_SERVICE_ROUTES } from '../../../resources/self-service-routes.ts';

/** The links to the pages of people without a session (./self-service/). */
export const LOGIN_LINKS = { signUp: 'Create account', forgot: 'Forgot password?' } as const;

export function LoginPage() {
  return (
    <Box component="main">
      <Login>
        <Typography component="h1" variant="h6" align="center" sx={{ mt: 1 }}>
          Marketplace Admin
        </Typography>
        <LoginForm>
          <TextInput
            autoFocus
            source="username"
            label="Email"
            type="email"
            autoComplete="username"
            validate={required()}
          />
          <PasswordInput source="password" label="Password" autoComplete="current-password" validate={required()} />
        </LoginForm>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1, px: 2, pb: 2 }}>
          <Link to={SELF_SERVICE_ROUTES.forgot}>{LOGIN_LINKS.forgot}</Link>
          <Link to={SELF_SERVICE_ROUTES.signUp}>{LOGIN_LINKS.signUp}</Link>
        </Box>
      </Login>
    </Box>
  );
}
