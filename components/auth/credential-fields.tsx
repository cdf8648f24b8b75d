import { SIGN_IN_DEACTIVATED, SIGN_IN_THROTTLED } from '@/lib/contracts/dashboard-plain';
import { TextField } from '../ui/field';

const FAILURES: Record<string, string> = {
  CredentialsSignin: 'That email and password do not match an account.',
  [SIGN_IN_THROTTLED]: 'Too many failed sign-ins to this account from here: wait a few minutes, then try again.',
  [SIGN_IN_DEACTIVATED]: 'The marketplace has deactivated your account, so you cannot sign in. Ask them to reactivate it.',
};

/** next-auth's error code, in words. */
export function signInFailure(error: string | undefined): string {
  return FAILURES[error ?? ''] ?? 'Sign-in failed. Try again.';
}

/** Email, password and why the last try failed: the sign-in page's and the sign-in-again prompt's. */
export function CredentialFields({ errorOf, failure }: { errorOf: (field: string) => string | undefined; failure: string | null }) {
  return (
    <>
      <TextField label="Email" name="email" type="email" required autoComplete="username" error={errorOf('email')} />
      <TextField label="Password" name="password" type="password" required autoComplete="current-password" error={errorOf('password')} />
      {failure ? (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {failure}
        </p>
      ) : null}
    </>
  );
}
