import type { FileReference } from '@app/contracts/chat';
import { useState, type MouseEvent } from 'react';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { isImage, type AttachmentView } from '../api/filesApi';
import { PRESIGN_FRESH_MS, usePresignedFiles } from '../hooks/usePresignedFiles';

type AttachmentsProps = { files: FileReference[]; shareId?: string | null; label?: string };

/**
 * The attachments of a message: a preview for images, a chip with the name for other files, a
 * spinner while each loads; a click opens the file (its signed link) in a new tab.
 */
export function Attachments(props: AttachmentsProps) {
  // Most messages have none: no query at all for them.
  return props.files.length > 0 ? <AttachmentList {...props} /> : null;
}

function AttachmentList({ files, shareId, label = 'Attachments' }: AttachmentsProps) {
  const query = usePresignedFiles(files, shareId);
  const views = query.data ?? [];
  if (query.isSuccess && views.length === 0) {
    return (
      <p className="attachments__missing muted small">
        <Icon name="file" size={14} /> {files.length === 1 ? 'The attachment could not be loaded.' : 'The attachments could not be loaded.'}
      </p>
    );
  }
  const open = async (event: MouseEvent<HTMLAnchorElement>, index: number) => {
    // A signed link lives 5 minutes: an older one is asked again before opening.
    if (Date.now() - query.dataUpdatedAt < PRESIGN_FRESH_MS) return;
    event.preventDefault();
    const fresh = (await query.refetch()).data?.[index];
    if (fresh) window.open(fresh.presigned_url, '_blank', 'noopener,noreferrer');
  };
  return (
    <ul className="attachments" aria-label={label}>
      {query.isSuccess
        ? views.map((view, index) => (
            <AttachmentLink key={view.object_store_object_id} view={view} onOpen={(event) => void open(event, index)} />
          ))
        : files.map((file) => (
            <li
              key={file.object_store_object_id}
              className={`attachment ${isImage(file.mime_type) ? 'attachment--image' : 'attachment--file'} attachment--loading`}
            >
              <Spinner label="Loading attachment" />
            </li>
          ))}
    </ul>
  );
}

function AttachmentLink({ view, onOpen }: { view: AttachmentView; onOpen: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  const [isLoading, setLoading] = useState(view.isLoading && !!view.preview_data_url);
  const image = isImage(view.mime_type) && !!view.preview_data_url;
  return (
    <li className={`attachment ${image ? 'attachment--image' : 'attachment--file'}`} data-loading={isLoading || undefined}>
      <a href={view.presigned_url} target="_blank" rel="noopener noreferrer" title={`Open ${view.filename}`} onClick={onOpen}>
        {image ? (
          <>
            {isLoading && <Spinner label={`Loading ${view.filename}`} />}
            <img src={view.preview_data_url!} alt={view.filename} onLoad={() => setLoading(false)} onError={() => setLoading(false)} />
          </>
        ) : (
          <>
            <Icon name="file" size={18} />
            <span className="attachment__name">{view.filename}</span>
          </>
        )}
      </a>
    </li>
  );
}
