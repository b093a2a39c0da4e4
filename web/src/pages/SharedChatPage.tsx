import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { fetchShared, SharedNotFoundError } from '../modules/chat/api/chatApi';
import { MessageItem } from '../modules/chat/components/message/MessageItem';
import { activeHistory, toDisplayMessage } from '../modules/chat/utils/history';
import { Header } from '../modules/layout/components/Header';
import { uiStore } from '../modules/layout/state/uiStore';
import { handleLightCopy } from '../ui/clipboard';
import { Spinner } from '../ui/Spinner';

/** A shared conversation, read-only; a missing one goes to /share/404. */
export function SharedChatPage() {
  const { shareId = '' } = useParams();
  const shared = useQuery({ queryKey: ['shared', shareId], queryFn: () => fetchShared(shareId), retry: false });
  useEffect(() => {
    uiStore.set({ currentChatId: shareId, shareChatButtonVisible: false });
  }, [shareId]);
  const messages = useMemo(() => {
    const all = (shared.data?.messages ?? []).filter((m) => !m.hidden).map(toDisplayMessage);
    return activeHistory(all, null);
  }, [shared.data]);
  if (shared.error instanceof SharedNotFoundError) return <Navigate to={`/share/404/${encodeURIComponent(shareId)}`} replace />;
  return (
    <div className="chat">
      <Header title={<h1 className="header__heading">{shared.data?.conversation_title ?? 'Shared conversation'}</h1>} />
      <div className="chat__scroll">
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
              <div className="messages">
                {messages.map((message) => (
                  <MessageItem key={message.id} message={message} busy={false} shareId={shareId} />
                ))}
              </div>
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
