import { useLayoutEffect, useMemo, useRef, type Ref } from 'react';
import type { SearchTerm } from '@app/contracts/chat/search-terms';
import type { ReplyDraft } from '../state/replyStore';
import { useFeedback, useSwitchBranch } from '../hooks/chatQueries';
import { useMessageWindow, type MessageListHandle } from '../hooks/useMessageWindow';
import { latestLeafFrom, siblingsOf, type DisplayMessage } from '../utils/history';
import { branchPlaces, messageRows } from '../utils/messageRows';
import { MessageItem } from './message/MessageItem';
import type { MessageActions } from './message/messageProps';

type ChatMessagesProps = {
  chatId?: string;
  /** The active branch up to where a streaming reply attaches. */
  visible: DisplayMessage[];
  all: DisplayMessage[];
  /** The user's message of the exchange streaming, until it is stored. */
  pendingUser: DisplayMessage | null;
  draft: ReplyDraft | null;
  linked: { target: string | null; highlighted: string | null; marks: SearchTerm[] | null };
  onEdit: (text: string, previousMessageId: string | null) => void;
  onRegenerate: (assistant: DisplayMessage) => void;
  onRetry: () => void;
  /** The scroll area the list is in. */
  scroller: HTMLElement | null;
  handle?: Ref<MessageListHandle>;
};

/**
 * The conversation's messages, each with its versions, then the reply streaming in; only those near
 * the view are rendered (hooks/useMessageWindow.ts).
 */
export function ChatMessages({
  chatId,
  visible,
  all,
  pendingUser,
  draft,
  linked,
  onEdit,
  onRegenerate,
  onRetry,
  scroller,
  handle,
}: ChatMessagesProps) {
  const switchBranch = useSwitchBranch();
  const feedback = useFeedback(chatId ?? '');
  const streaming = !!draft?.streaming;
  const places = useMemo(() => branchPlaces(all), [all]);
  const hasDraft = !!draft;
  const draftId = draft?.id;
  const rows = useMemo(
    () => messageRows(visible, places, pendingUser, hasDraft ? { id: draftId } : null),
    [visible, places, pendingUser, hasDraft, draftId],
  );

  // The same functions for every render, calling the latest handlers: the messages stay memoised.
  const latest = useRef({ onEdit, onRegenerate, chatId, all, switchBranch, feedback });
  useLayoutEffect(() => {
    latest.current = { onEdit, onRegenerate, chatId, all, switchBranch, feedback };
  });
  const actions = useMemo<MessageActions>(
    () => ({
      edit: (message, text) => latest.current.onEdit(text, message.previous_message_id),
      regenerate: (message) => latest.current.onRegenerate(message),
      feedback: (message, value, verbose) => latest.current.feedback.mutate({ messageId: message.id, feedback: value, verbose }),
      switchBranch: (message, index) => {
        const { chatId: id, all: messages, switchBranch: mutation } = latest.current;
        const siblings = siblingsOf(message, messages);
        if (id && siblings[index]) mutation.mutate({ chatId: id, leafId: latestLeafFrom(siblings[index].id, messages) });
      },
    }),
    [],
  );

  const highlightedKey = rows.find((row) => row.kind !== 'draft' && row.message.id === (linked.highlighted ?? linked.target))?.key ?? null;
  const virtualizer = useMessageWindow({ rows, scroller, chatId, pinned: [highlightedKey], handle });
  return (
    <div className="messages messages--windowed" aria-live="off" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        return (
          <div
            key={item.key}
            className="messages__row"
            data-index={item.index}
            ref={virtualizer.measureElement}
            style={{ top: item.start }}
          >
            {row.kind === 'draft' ? (
              <MessageItem draft={draft ?? undefined} busy={streaming} onRetry={onRetry} />
            ) : row.kind === 'sending' ? (
              <MessageItem message={row.message} busy />
            ) : (
              <MessageItem
                message={row.message}
                busy={streaming}
                branch={chatId ? row.branch : undefined}
                actions={actions}
                highlighted={linked.highlighted === row.message.id}
                linked={linked.target === row.message.id}
                marks={linked.target === row.message.id ? linked.marks : null}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
