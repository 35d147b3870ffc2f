/**
 * react-admin's login screen; the identifier is an email (the API's `email`, react-admin's `username`).
 * The page is the document's main landmark and says what it is in a level-one heading.
 */
import { Box, Typography } from '@mui/material';
import { Login, LoginForm, PasswordInput, TextInput, required } from 'react-admin';

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
      </Login>
    </Box>
  );
}
