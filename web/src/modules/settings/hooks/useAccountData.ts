import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { showToast } from '../../../ui/toastStore';
import { logout } from '../../auth/state/authStore';
import { useBusyAction } from '../../common/hooks/useBusyAction';
import { deleteAccount, downloadExport } from '../api/accountApi';

/** The word typed to confirm the deletion. */
export const CONFIRM_WORD = 'DELETE';

/** The export zip: downloaded, with a toast either way. */
export function useExportData() {
  const exporting = useBusyAction(() => downloadExport(), {
    fallback: 'The export failed.',
    onSuccess: (file) => showToast(`Downloaded ${file}.`, 'success'),
    onError: (message) => showToast(message, 'error'),
  });
  return { exporting: exporting.busy, download: () => exporting.run() };
}

/**
 * The account deletion: a dialog where DELETE is typed to confirm; once the server has it, the
 * user is logged out and sent to the login page with the server's message. A failure stays in the dialog.
 */
export function useDeleteAccount() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const deletion = useBusyAction(() => deleteAccount(), {
    fallback: 'The account could not be deleted.',
    onSuccess: async (message) => {
      setOpen(false);
      await logout();
      navigate('/login', { replace: true, state: { notice: message } });
      showToast(message, 'success', 8000);
    },
  });
  const confirmed = typed === CONFIRM_WORD;
  return {
    open,
    typed,
    setTyped,
    confirmed,
    deleting: deletion.busy,
    error: deletion.error,
    start: () => {
      setTyped('');
      deletion.reset();
      setOpen(true);
    },
    cancel: () => setOpen(false),
    /** Closing by Escape or the close button: not while the deletion runs. */
    close: () => {
      if (!deletion.busy) setOpen(false);
    },
    submit: (event: FormEvent) => {
      event.preventDefault();
      if (confirmed) deletion.run();
    },
  };
}
