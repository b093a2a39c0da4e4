import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { useAuthStatus } from '../state/authStore';
import { markFirstTimeModalShown, shouldShowFirstTimeModal } from '../state/firstTimeModal';

/** The welcome / sign-up dialog a guest sees once (section 2). */
export function WelcomeDialog() {
  const status = useAuthStatus();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open && shouldShowFirstTimeModal(status, pathname)) {
      markFirstTimeModalShown();
      setOpen(true);
    }
  }, [status, pathname, open]);
  return (
    <Dialog open={open} title="Welcome to Assistant" onClose={() => setOpen(false)}>
      <p>
        You can start chatting right away as a guest. Sign up to keep your conversations on every device and let the assistant remember what
        matters to you.
      </p>
      <p className="muted small">
        By using the assistant you agree to the{' '}
        <Link to="/terms" onClick={() => setOpen(false)}>
          Terms of Use
        </Link>{' '}
        and the{' '}
        <Link to="/privacy" onClick={() => setOpen(false)}>
          Privacy Policy
        </Link>
        . You must be 18 or older.
      </p>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          Continue as a guest
        </button>
        <Link to="/login" className="button button--primary" onClick={() => setOpen(false)}>
          Sign up
        </Link>
      </div>
    </Dialog>
  );
}
