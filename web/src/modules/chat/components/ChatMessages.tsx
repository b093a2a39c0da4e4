import type { SearchTerm } from '@app/contracts/chat/search-terms';
import type { ReplyDraft } from '../state/replyStore';
import { latestLeafFrom, siblingsOf, type DisplayMessage } from '../utils/history';
import { useFeedback, useSwitchBranch } from '../hooks/chatQueries';
import { DraftReply } from './DraftReply';
import { MessageItem } from './MessageItem';

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
};

/** The conversation's messages, each with its versions, then the reply streaming in. */
export function ChatMessages({ chatId, visible, all, pendingUser, draft, linked, onEdit, onRegenerate, onRetry }: ChatMessagesProps) {
  const switchBranch = useSwitchBranch();
  const feedback = useFeedback(chatId ?? '');
  const streaming = !!draft?.streaming;
  const branchOf = (message: DisplayMessage) => {
    const siblings = siblingsOf(message, all);
    if (siblings.length < 2 || !chatId) return undefined;
    return {
      index: siblings.findIndex((m) => m.id === message.id),
      count: siblings.length,
      onSwitch: (next: number) => switchBranch.mutate({ chatId, leafId: latestLeafFrom(siblings[next].id, all) }),
    };
  };
  return (
    <div className="messages" aria-live="off">
      {visible.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          busy={streaming}
          branch={branchOf(message)}
          onEdit={message.isUser ? (text) => onEdit(text, message.previous_message_id) : undefined}
          onRegenerate={message.isUser ? undefined : () => onRegenerate(message)}
          onFeedback={message.isUser ? undefined : (value, verbose) => feedback.mutate({ messageId: message.id, feedback: value, verbose })}
          highlighted={linked.highlighted === message.id}
          linked={linked.target === message.id}
          marks={linked.target === message.id ? linked.marks : null}
        />
      ))}
      {pendingUser && <MessageItem message={pendingUser} busy />}
      {draft && <DraftReply draft={draft} onRetry={onRetry} />}
    </div>
  );
}
