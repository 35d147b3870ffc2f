/** react-admin's login screen; the identifier is an email (the API's `email`, react-admin's `username`). */
import { Login, LoginForm, PasswordInput, TextInput, required } from 'react-admin';

export function LoginPage() {
  return (
    <Login>
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
  );
}
