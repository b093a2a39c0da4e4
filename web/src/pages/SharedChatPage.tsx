import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { fetchShared, SharedChangedError, SharedNotFoundError } from '../modules/chat/api/chatApi';
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
  // Read in pages from the first message; the next is asked for as the reader nears the end of those read.
  const shared = useInfiniteQuery({
    queryKey: ['shared', shareId],
    queryFn: ({ pageParam }) => fetchShared(shareId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => (page.has_more ? page.messages.at(-1)?.message_id : undefined),
    retry: false,
  });
  useEffect(() => {
    uiStore.set({ currentChatId: shareId, shareChatButtonVisible: false });
  }, [shareId]);
  // The server sends the shared branch itself, oldest first, its hidden messages left out: shown as it
  // comes (walking it again from its end would stop at the gap a hidden message leaves).
  const pages = shared.data?.pages;
  const first = pages?.[0];
  const messages = useMemo(() => (pages ?? []).flatMap((page) => page.messages.filter((m) => !m.hidden).map(toDisplayMessage)), [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isFetchNextPageError, error, refetch } = shared;
  // A later page after a message no longer on the branch: the share is read again from its start.
  const changed = isFetchNextPageError && error instanceof SharedChangedError;
  useEffect(() => {
    if (changed) void refetch();
  }, [changed, refetch]);
  // A page that failed is asked for again by its "Try again", not by scrolling on.
  const later = useMemo(
    () => ({
      more: hasNextPage && !isFetchNextPageError,
      loading: isFetchingNextPage,
      load: () => void fetchNextPage({ cancelRefetch: false }),
    }),
    [hasNextPage, isFetchNextPageError, isFetchingNextPage, fetchNextPage],
  );
  if (shared.error instanceof SharedNotFoundError) return <Navigate to={`/share/404/${encodeURIComponent(shareId)}`} replace />;
  return (
    <div className="chat">
      <Header title={<h1 className="header__heading">{first?.conversation_title ?? 'Shared conversation'}</h1>} />
      <div className="chat__scroll" ref={setScroller}>
        <div className="chat__column" onCopy={handleLightCopy}>
          {shared.isLoading && (
            <div className="empty-state">
              <Spinner label="Loading the conversation" />
            </div>
          )}
          {shared.isError && !isFetchNextPageError && !(shared.error instanceof SharedNotFoundError) && (
            <p className="notice notice--error" role="alert">
              {shared.error instanceof Error ? shared.error.message : 'The conversation could not be loaded.'}
            </p>
          )}
          {first && (
            <>
              <p className="notice notice--info">A read-only copy shared on {new Date(first.shared_at).toLocaleDateString()}.</p>
              <SharedMessages shareId={shareId} messages={messages} scroller={scroller} later={later} />
              {isFetchingNextPage && (
                <div className="center">
                  <Spinner label="Loading more of the conversation" />
                </div>
              )}
              {isFetchNextPageError && !changed && (
                <p className="notice notice--error" role="alert">
                  The rest of the conversation could not be loaded.{' '}
                  <button type="button" className="link-button" onClick={later.load}>
                    Try again
                  </button>
                </p>
              )}
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
