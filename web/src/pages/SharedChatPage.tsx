import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { fetchShared, SharedNotFoundError } from '../modules/chat/api/chatApi';
import { SharedMessages } from '../modules/chat/components/SharedMessages';
import { toDisplayMessage } from '../modules/chat/utils/history';
import { Header } from '../modules/layout/components/Header';
import { uiStore } from '../modules/layout/state/uiStore';
import { handleLightCopy } from '../ui/clipboard';
import { Spinner } from '../ui/Spinner';

/**
 * A shared conversation, read-only, from its first message (only the messages near the view are
 * rendered); a missing one goes to /share/404.
 */
export function SharedChatPage() {
  const { shareId = '' } = useParams();
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const shared = useQuery({ queryKey: ['shared', shareId], queryFn: () => fetchShared(shareId), retry: false });
  useEffect(() => {
    uiStore.set({ currentChatId: shareId, shareChatButtonVisible: false });
  }, [shareId]);
  // The server sends the shared branch itself, oldest first, its hidden messages left out: shown as it
  // comes (walking it again from its end would stop at the gap a hidden message leaves).
  const messages = useMemo(() => (shared.data?.messages ?? []).filter((m) => !m.hidden).map(toDisplayMessage), [shared.data]);
  if (shared.error instanceof SharedNotFoundError) return <Navigate to={`/share/404/${encodeURIComponent(shareId)}`} replace />;
  return (
    <div className="chat">
      <Header title={<h1 className="header__heading">{shared.data?.conversation_title ?? 'Shared conversation'}</h1>} />
      <div className="chat__scroll" ref={setScroller}>
        <div className="chat__column" onCopy={handleLightCopy}>
          {shared.isLoading && (
            <div className="empty-state">
              <Spinner label="Loading the conversation" />
            </div>
          )}
          {shared.isError && !(shared.error instanceof SharedNotFoundError) && (
            <p className="notice notice--error" role="alert">
              {shared.error instanceof Error ? shared.error.message : 'The conversation could not be loaded.'}
            </p>
          )}
          {shared.data && (
            <>
              <p className="notice notice--info">A read-only copy shared on {new Date(shared.data.shared_at).toLocaleDateString()}.</p>
              <SharedMessages shareId={shareId} messages={messages} scroller={scroller} />
              <p className="center">
                <Link to="/chat" className="button button--primary">
                  Start your own conversation
                </Link>
              </p>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
