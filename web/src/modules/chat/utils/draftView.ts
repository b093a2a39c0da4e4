import type { ReplyDraft } from '../state/replyStore';
import { bareMessage, toDisplayMessage, type DisplayMessage } from './history';

/**
 * With a reply streaming, the history ends where the new exchange attaches (the message it follows,
 * or the user message being answered again); the stored copies of the draft's messages are left to
 * the draft. An anchor not read is older than what is read (a reply answered again, or a message
 * edited, that is the oldest read): nothing read comes before the exchange.
 */
export function historyBeforeDraft(history: DisplayMessage[], draft: ReplyDraft | null): DisplayMessage[] {
  if (!draft) return history;
  const anchor = draft.regenerateOf ?? draft.previousMessageId;
  const index = anchor ? history.findIndex((m) => m.id === anchor) : -1;
  const base = index >= 0 ? history.slice(0, index + 1) : [];
  const hide = new Set([draft.regenerateOf ? undefined : draft.userMessage?.message_id, draft.assistantMessage?.message_id]);
  return base.filter((m) => !hide.has(m.id));
}

/** The user's message of the exchange streaming: the stored one, else the text sent; none when regenerating. */
export function draftUserMessage(draft: ReplyDraft | null): DisplayMessage | null {
  if (!draft || draft.regenerateOf) return null;
  if (draft.userMessage) return toDisplayMessage(draft.userMessage);
  if (draft.pendingUserText === null) return null;
  return toDisplayMessage(
    bareMessage({
      message_id: 'pending',
      chat_id: draft.chatId,
      content: draft.pendingUserText,
      sender: 'user',
      previous_message_id: draft.previousMessageId,
      metadata: draft.pendingFiles.length ? { files: draft.pendingFiles } : {},
      created_at: new Date().toISOString(),
    }),
  );
}
