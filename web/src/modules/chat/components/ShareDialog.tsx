import { useEffect, useState } from 'react';
import { CopyButton } from '../../../ui/CopyButton';
import { Dialog } from '../../../ui/Dialog';
import { Spinner } from '../../../ui/Spinner';
import { uiStore, useUi } from '../../layout/state/uiStore';
import { useShareConversation } from '../hooks/chatQueries';

type ShareDialogProps = { chatId: string };

/** The share-chat modal: a read-only link to the conversation. */
export function ShareDialog({ chatId }: ShareDialogProps) {
  const open = useUi((s) => s.shareChatModalOpen);
  const share = useShareConversation();
  const [url, setUrl] = useState<string | null>(null);
  const { mutate, reset } = share;
  useEffect(() => {
    if (!open) return;
    setUrl(null);
    reset();
    mutate(chatId, {
      onSuccess: (result) => setUrl(new URL(result.url || `/share/${result.share_id}`, window.location.origin).toString()),
    });
  }, [open, chatId, mutate, reset]);
  return (
    <Dialog open={open} title="Share conversation" onClose={() => uiStore.set({ shareChatModalOpen: false })}>
      <p className="muted">Anyone with the link can read this conversation as it is now. They cannot write in it.</p>
      {share.isPending && <Spinner label="Creating the link" />}
      {share.isError && (
        <p className="notice notice--error" role="alert">
          {share.error instanceof Error ? share.error.message : 'The link could not be created.'}
        </p>
      )}
      {url && (
        <div className="share-link">
          <input readOnly value={url} aria-label="Share link" onFocus={(event) => event.target.select()} />
          <CopyButton text={url} label="Copy link" className="button button--primary" />
        </div>
      )}
    </Dialog>
  );
}
