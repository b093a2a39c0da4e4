import { useLayoutEffect, useMemo, useRef, type Ref } from 'react';
import type { SearchTerm } from '@app/contracts/chat/search-terms';
import type { ReplyDraft } from '../state/replyStore';
import { useFeedback, useSwitchBranch } from '../hooks/chatQueries';
import { useMessageWindow, useMoreNearEdge, type MessageListHandle, type MoreMessages } from '../hooks/useMessageWindow';
import { latestLeafFrom, siblingsOf, type DisplayMessage } from '../utils/history';
import { messageRows, placesOf, type KnownVersions } from '../utils/messageRows';
import { MessageItem } from './message/MessageItem';
import type { MessageActions } from './message/messageProps';
import { WindowedMessages } from './WindowedMessages';

type ChatMessagesProps = {
  chatId?: string;
  /** The active branch up to where a streaming reply attaches. */
  visible: DisplayMessage[];
  /** Every message read (the active branch's, and those of a reply on its way). */
  all: DisplayMessage[];
  /** The versions of the messages read, as the server gave them with their pages. */
  versions: Map<string, KnownVersions>;
  /** The branch's older messages, read when the reader nears the top. */
  older?: MoreMessages;
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
  versions,
  older,
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
  const places = useMemo(() => placesOf(all, versions), [all, versions]);
  const hasDraft = !!draft;
  const draftId = draft?.id;
  const rows = useMemo(
    () => messageRows(visible, places, pendingUser, hasDraft ? { id: draftId } : null),
    [visible, places, pendingUser, hasDraft, draftId],
  );

  // The same functions for every render, calling the latest handlers: the messages stay memoised.
  const latest = useRef({ onEdit, onRegenerate, chatId, all, versions, switchBranch, feedback });
  useLayoutEffect(() => {
    latest.current = { onEdit, onRegenerate, chatId, all, versions, switchBranch, feedback };
  });
  const actions = useMemo<MessageActions>(
    () => ({
      edit: (message, text) => latest.current.onEdit(text, message.previous_message_id),
      regenerate: (message) => latest.current.onRegenerate(message),
      feedback: (message, value, verbose) => latest.current.feedback.mutate({ messageId: message.id, feedback: value, verbose }),
      switchBranch: (message, index) => {
        const { chatId: id, all: messages, versions: known, switchBranch: mutation } = latest.current;
        // Where the version leads, as the server knows it (its branch is seldom read); else as read.
        const sibling = siblingsOf(message, messages)[index];
        const leafId = known.get(message.id)?.leaves[index] ?? (sibling ? latestLeafFrom(sibling.id, messages) : undefined);
        if (id && leafId) mutation.mutate({ chatId: id, leafId });
      },
    }),
    [],
  );

  const highlightedKey = rows.find((row) => row.kind !== 'draft' && row.message.id === (linked.highlighted ?? linked.target))?.key ?? null;
  const virtualizer = useMessageWindow({ rows, scroller, chatId, pinned: [highlightedKey], handle });

  // Near the top of what is read, the page before it is asked for; it is put above without moving
  // the view (the list keeps the row at the top of the view where it was: anchorTo 'end').
  useMoreNearEdge(virtualizer, rows.length, 'start', older, scroller);
  return (
    <WindowedMessages
      rows={rows}
      virtualizer={virtualizer}
      renderRow={(row) =>
        row.kind === 'draft' ? (
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
        )
      }
    />
  );
}
