import { useState } from 'react';
import { useStore } from '../../common/state/createStore';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import type { AttachmentDraft } from '../state/attachmentDraft';

type AttachmentTrayProps = { draft: AttachmentDraft };

const sizeOf = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The files attached to the message being written: a preview each, a spinner while uploading, a remove button. */
export function AttachmentTray({ draft }: AttachmentTrayProps) {
  const items = useStore(draft, (s) => s.items);
  const notice = useStore(draft, (s) => s.notice);
  if (items.length === 0 && !notice) return null;
  return (
    <div className="tray">
      {items.length > 0 && (
        <ul className="tray__list" aria-label="Files to send">
          {items.map((item) => (
            <li key={item.key} className="tray__item" data-status={item.status}>
              <div className="tray__thumb">
                <Thumb url={item.previewUrl} />
                {item.status === 'uploading' && (
                  <span className="tray__spinner">
                    <Spinner label={`Uploading ${item.name}`} />
                  </span>
                )}
              </div>
              <div className="tray__text">
                <span className="tray__name" title={item.name}>
                  {item.name}
                </span>
                {item.status === 'failed' ? (
                  <span className="tray__error">Not attached</span>
                ) : (
                  <span className="tray__meta">{item.status === 'uploading' ? 'Uploading…' : sizeOf(item.size)}</span>
                )}
              </div>
              <button
                type="button"
                className="icon-button icon-button--small tray__remove"
                aria-label={`Remove ${item.name}`}
                title="Remove"
                onClick={() => {
                  draft.remove(item.key);
                  document.getElementById('composer-input')?.focus();
                }}
              >
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      {items.some((item) => item.status === 'failed') && (
        <ul className="tray__errors" role="alert">
          {items
            .filter((item) => item.status === 'failed')
            .map((item) => (
              <li key={item.key}>
                <strong>{item.name}</strong>: {item.error}
              </li>
            ))}
        </ul>
      )}
      {notice && (
        <p className="tray__notice" role="status">
          {notice}
        </p>
      )}
    </div>
  );
}

/** The local preview of an image; a file icon for anything else or an image that does not decode. */
function Thumb({ url }: { url: string | null }) {
  const [broken, setBroken] = useState(false);
  if (!url || broken) return <Icon name="file" size={20} />;
  return <img src={url} alt="" onError={() => setBroken(true)} />;
}
