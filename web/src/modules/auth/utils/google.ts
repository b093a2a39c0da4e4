/** Google Identity Services (code flow, popup, redirect URI 'postmessage'), when its script can load. */
type CodeClient = { requestCode: () => void };
type GoogleAccounts = {
  accounts: {
    oauth2: {
      initCodeClient: (config: {
        client_id: string;
        scope: string;
        ux_mode: 'popup';
        callback: (response: { code?: string; error?: string }) => void;
      }) => CodeClient;
    };
  };
};

let loading: Promise<GoogleAccounts | null> | null = null;

export function loadGoogleIdentity(timeoutMs = 4000): Promise<GoogleAccounts | null> {
  const pending: Promise<GoogleAccounts | null> =
    loading ??
    new Promise<GoogleAccounts | null>((resolve) => {
      const existing = (window as unknown as { google?: GoogleAccounts }).google;
      if (existing?.accounts?.oauth2) return resolve(existing);
      const script = document.createElement('script');
      script.src = 'https://accounts.google.com/gsi/client';
      script.async = true;
      const timer = setTimeout(() => resolve(null), timeoutMs);
      script.onload = () => {
        clearTimeout(timer);
        resolve((window as unknown as { google?: GoogleAccounts }).google ?? null);
      };
      script.onerror = () => {
        clearTimeout(timer);
        resolve(null);
      };
      document.head.appendChild(script);
    }).then((google) => {
      if (!google) loading = null;
      return google;
    });
  loading = pending;
  return pending;
}

/** Asks Google for a code in a popup; null when the popup flow is not available here. */
export async function requestGoogleCode(clientId: string): Promise<string | null> {
  const google = await loadGoogleIdentity();
  if (!google) return null;
  return new Promise((resolve, reject) => {
    const client = google.accounts.oauth2.initCodeClient({
      client_id: clientId,
      scope: 'openid email profile',
      ux_mode: 'popup',
      callback: (response) =>
        response.code ? resolve(response.code) : reject(new Error(response.error ?? 'Google sign-in was cancelled.')),
    });
    client.requestCode();
  });
}
