import { leavePage } from '../../common/utils/leavePage';
import type { AppleConfig } from '../api/authApi';
import { rememberNext } from '../utils/loginContext';
import { appleAuthorizeUrl } from '../utils/apple';

type SignInWithAppleProps = { config: AppleConfig; busy: boolean; next: string | null };

/** Apple's page, by a full navigation; the answer comes back in the fragment (useAppleReturn). */
export function SignInWithApple({ config, busy, next }: SignInWithAppleProps) {
  return (
    <button
      type="button"
      className="button button--provider"
      disabled={busy}
      onClick={() => {
        rememberNext(next);
        leavePage(appleAuthorizeUrl(config));
      }}
    >
      <span className="provider-mark" aria-hidden="true"></span> Continue with Apple
    </button>
  );
}
