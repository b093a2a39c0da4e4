import { useEffect } from 'react';
import { fetchAppleConfig, fetchFirebaseConfig, fetchGoogleConfig } from '../api/authApi';
import { setProviderConfigs, useAuth } from '../state/authStore';

/** The sign-in providers configured on the server (Google, Apple, Firebase), fetched once per visit of the form. */
export function useProviderConfigs() {
  const googleClientId = useAuth((s) => s.googleClientId);
  const appleConfig = useAuth((s) => s.appleConfig);
  const firebaseConfig = useAuth((s) => s.firebaseConfig);
  useEffect(() => {
    let cancelled = false;
    void Promise.all([fetchGoogleConfig(), fetchAppleConfig(), fetchFirebaseConfig()]).then(([google, apple, firebase]) => {
      if (!cancelled) setProviderConfigs({ googleClientId: google?.client_id ?? null, appleConfig: apple, firebaseConfig: firebase });
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return { googleClientId, appleConfig, firebaseConfig };
}
