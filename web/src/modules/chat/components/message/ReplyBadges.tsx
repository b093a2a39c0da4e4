import type { Message } from '@app/contracts/chat';
import { OfflineNote } from './OfflineNote';

/** Which model wrote a reply: the offline model's note, and the model's name when the flag shows it. */
export function ReplyBadges({ metadata, showModel }: { metadata: Message['metadata']; showModel: boolean }) {
  return (
    <>
      {/* The provider says so (replies stored before it did are known by their provider's id). */}
      {(metadata.offline ?? metadata.provider === 'offline') && <OfflineNote />}
      {showModel && metadata.model && (
        <span className="badge badge--muted" title={metadata.auto_selected ? 'Chosen automatically' : 'Configured model'}>
          {metadata.model}
          {metadata.auto_selected ? ' (auto)' : ''}
        </span>
      )}
    </>
  );
}
