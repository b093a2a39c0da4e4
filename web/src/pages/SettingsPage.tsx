import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { saveProfile } from '../modules/auth/api/onboardingApi';
import { logout, setUser, useAuthStatus, useUser } from '../modules/auth/state/authStore';
import { useEffectiveFlag } from '../modules/insider/state/insiderStore';
import { Header } from '../modules/layout/components/Header';
import { MemorySummary } from '../modules/memory/components/MemorySummary';
import { deleteAccount, downloadExport } from '../modules/settings/api/accountApi';
import { InsiderPanel } from '../modules/settings/components/InsiderPanel';
import { InvitePanel } from '../modules/settings/components/InvitePanel';
import { VoicePanel } from '../modules/settings/components/VoicePanel';
import { setDarkMode, useDarkMode } from '../modules/theme/state/themeStore';
import { Dialog } from '../ui/Dialog';
import { Icon } from '../ui/Icon';
import { Spinner } from '../ui/Spinner';
import { showToast } from '../ui/toastStore';

const CONFIRM_WORD = 'DELETE';

export function SettingsPage() {
  const user = useUser();
  const status = useAuthStatus();
  const dark = useDarkMode();
  const navigate = useNavigate();
  const [name, setName] = useState(user?.name ?? '');
  const [savingName, setSavingName] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const registered = status === 'registered';
  const canInvite = useEffectiveFlag('can_create_invite') === true;

  const saveName = async (event: FormEvent) => {
    event.preventDefault();
    setSavingName(true);
    try {
      setUser(await saveProfile(name.trim()));
      showToast('Your name was saved.', 'success');
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'The name could not be saved.', 'error');
    } finally {
      setSavingName(false);
    }
  };

  const exportData = async () => {
    setExporting(true);
    try {
      const file = await downloadExport();
      showToast(`Downloaded ${file}.`, 'success');
    } catch (error) {
      showToast(error instanceof Error ? error.message : 'The export failed.', 'error');
    } finally {
      setExporting(false);
    }
  };

  const removeAccount = async () => {
    setDeleting(true);
    setDeleteError(null);
    try {
      const message = await deleteAccount();
      setConfirmOpen(false);
      await logout();
      navigate('/login', { replace: true, state: { notice: message } });
      showToast(message, 'success', 8000);
    } catch (error) {
      setDeleteError(error instanceof Error ? error.message : 'The account could not be deleted.');
    } finally {
      setDeleting(false);
    }
  };

  return (
    <div className="page">
      <Header title={<h1 className="header__heading">Settings</h1>} />
      <main className="page__scroll" id="main">
        <div className="settings">
          <section className="settings__section" aria-labelledby="profile-title">
            <h2 id="profile-title">Profile</h2>
            {registered ? (
              <>
                <dl className="facts">
                  {user?.phone_number && (
                    <>
                      <dt>Mobile number</dt>
                      <dd>{user.phone_number}</dd>
                    </>
                  )}
                  {user?.email && (
                    <>
                      <dt>E-mail</dt>
                      <dd>{user.email}</dd>
                    </>
                  )}
                </dl>
                <form className="form form--inline" onSubmit={saveName}>
                  <label className="field">
                    <span>Name</span>
                    <input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required autoComplete="name" />
                  </label>
                  <button type="submit" className="button button--secondary" disabled={savingName || !name.trim() || name.trim() === user?.name}>
                    {savingName ? <Spinner label="Saving" /> : 'Save'}
                  </button>
                </form>
              </>
            ) : (
              <p>
                You are using the assistant as a guest. <Link to="/login">Sign in or sign up</Link> to keep your conversations on every device.
              </p>
            )}
          </section>

          <section className="settings__section" aria-labelledby="appearance-title">
            <h2 id="appearance-title">Appearance</h2>
            <fieldset className="segmented">
              <legend className="visually-hidden">Theme</legend>
              <label>
                <input type="radio" name="theme" checked={dark} onChange={() => setDarkMode(true)} /> <Icon name="moon" size={16} /> Dark
              </label>
              <label>
                <input type="radio" name="theme" checked={!dark} onChange={() => setDarkMode(false)} /> <Icon name="sun" size={16} /> Light
              </label>
            </fieldset>
          </section>

          <section className="settings__section" aria-labelledby="memories-title">
            <h2 id="memories-title">Memories</h2>
            <MemorySummary />
          </section>

          <section className="settings__section" aria-labelledby="voice-title">
            <h2 id="voice-title">Voice</h2>
            <VoicePanel />
          </section>

          {registered && (
            <section className="settings__section" aria-labelledby="insider-title">
              <h2 id="insider-title">Early access</h2>
              <InsiderPanel />
            </section>
          )}

          {registered && canInvite && (
            <section className="settings__section" aria-labelledby="invites-title">
              <h2 id="invites-title">Invite people</h2>
              <InvitePanel />
            </section>
          )}

          <section className="settings__section" aria-labelledby="data-title">
            <h2 id="data-title">Your data</h2>
            <div className="settings__row">
              <div>
                <h3>Export your data</h3>
                <p className="muted">A zip file with everything the assistant holds about you.</p>
              </div>
              <button type="button" className="button button--secondary" onClick={exportData} disabled={exporting}>
                {exporting ? <Spinner label="Preparing the export" /> : <><Icon name="download" size={16} /> Download</>}
              </button>
            </div>
            <div className="settings__row">
              <div>
                <h3>Delete your account</h3>
                <p className="muted">Your conversations, memories and settings are deleted for good.</p>
              </div>
              <button
                type="button"
                className="button button--danger"
                onClick={() => {
                  setTyped('');
                  setDeleteError(null);
                  setConfirmOpen(true);
                }}
              >
                Delete account
              </button>
            </div>
          </section>

          <p className="muted small">
            <Link to="/terms">Terms of Use</Link> · <Link to="/privacy">Privacy Policy</Link>
          </p>
        </div>
      </main>

      <Dialog open={confirmOpen} title="Delete your account?" onClose={() => !deleting && setConfirmOpen(false)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === CONFIRM_WORD) void removeAccount();
          }}
        >
          <p>Everything the assistant holds about you is deleted. This cannot be undone.</p>
          <label className="field">
            <span>
              Type <strong>{CONFIRM_WORD}</strong> to confirm
            </span>
            <input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" autoCapitalize="characters" spellCheck={false} />
          </label>
          {deleteError && <p className="notice notice--error" role="alert">{deleteError}</p>}
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={() => setConfirmOpen(false)} disabled={deleting}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={typed !== CONFIRM_WORD || deleting}>
              {deleting ? <Spinner label="Deleting" /> : 'Delete my account'}
            </button>
          </div>
        </form>
      </Dialog>
    </div>
  );
}
