import type { FirebaseConfig } from '../api/authApi';

/** Firebase e-mail sign-in through its REST API: answers the ID token the server verifies. */
export async function firebaseEmailSignIn(config: FirebaseConfig, email: string, password: string): Promise<string> {
  const response = await fetch(
    `https://identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=${encodeURIComponent(config.api_key)}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  const body = (await response.json().catch(() => ({}))) as { idToken?: string; error?: { message?: string } };
  if (!response.ok || !body.idToken)
    throw new Error(
      body.error?.message === 'INVALID_LOGIN_CREDENTIALS' ? 'The e-mail or password is not right.' : 'Firebase sign-in failed.',
    );
  return body.idToken;
}
