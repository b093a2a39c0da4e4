import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { CONFIRM_WORD, useDeleteAccount, useExportData } from '../hooks/useAccountData';

/** The user's data: the export zip, and the account deletion (confirmed by typing DELETE). */
export function DataSection() {
  const { exporting, download } = useExportData();
  const deletion = useDeleteAccount();
  return (
    <>
      <div className="settings__row">
        <div>
          <h3>Export your data</h3>
          <p className="muted">A zip file with everything the assistant holds about you.</p>
        </div>
        <button type="button" className="button button--secondary" onClick={download} disabled={exporting}>
          {exporting ? (
            <Spinner label="Preparing the export" />
          ) : (
            <>
              <Icon name="download" size={16} /> Download
            </>
          )}
        </button>
      </div>
      <div className="settings__row">
        <div>
          <h3>Delete your account</h3>
          <p className="muted">Your conversations, memories and settings are deleted for good.</p>
        </div>
        <button type="button" className="button button--danger" onClick={deletion.start}>
          Delete account
        </button>
      </div>

      <Dialog open={deletion.open} title="Delete your account?" onClose={deletion.close}>
        <form className="form" onSubmit={deletion.submit}>
          <p>Everything the assistant holds about you is deleted. This cannot be undone.</p>
          <Field
            label={
              <>
                Type <strong>{CONFIRM_WORD}</strong> to confirm
              </>
            }
          >
            {(control) => (
              <input
                {...control}
                value={deletion.typed}
                onChange={(event) => deletion.setTyped(event.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
              />
            )}
          </Field>
          {deletion.error && (
            <p className="notice notice--error" role="alert">
              {deletion.error}
            </p>
          )}
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={deletion.cancel} disabled={deletion.deleting}>
              Cancel
            </button>
            <button type="submit" className="button button--danger" disabled={!deletion.confirmed || deletion.deleting}>
              {deletion.deleting ? <Spinner label="Deleting" /> : 'Delete my account'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
