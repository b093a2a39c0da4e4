type MessageEditorProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onCancel: () => void;
  onSubmit: () => void;
  busy: boolean;
};

/** A message of the user's in its edit box; sending it starts a new branch. */
export function MessageEditor({ id, value, onChange, onCancel, onSubmit, busy }: MessageEditorProps) {
  return (
    <form
      className="message__edit"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label className="visually-hidden" htmlFor={`edit-${id}`}>
        Edit your message
      </label>
      <textarea id={`edit-${id}`} value={value} onChange={(event) => onChange(event.target.value)} rows={3} autoFocus />
      <div className="form__actions">
        <button type="button" className="button button--secondary button--small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button--primary button--small" disabled={!value.trim() || busy}>
          Send
        </button>
      </div>
    </form>
  );
}
