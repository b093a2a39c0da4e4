import { describe, expect, it } from 'vitest';
import { chatMessage, replyDraft } from '../../../test/builders';
import { draftUserMessage, historyBeforeDraft } from './draftView';
import { toDisplayMessage } from './history';

const stored = (id: string, previous: string | null, sender = 'user') => chatMessage(id, { sender, previous_message_id: previous });
// u1 → a1 → u2 → a2
const history = [stored('u1', null), stored('a1', 'u1', 'assistant'), stored('u2', 'a1'), stored('a2', 'u2', 'assistant')].map(
  toDisplayMessage,
);
const ids = (messages: { id: string }[]) => messages.map((m) => m.id);

describe('the conversation while a reply streams', () => {
  it('shows the whole history when nothing streams', () => {
    expect(historyBeforeDraft(history, null)).toBe(history);
  });

  it('ends the history where the new exchange attaches, and hides the stored copies of the draft’s messages', () => {
    expect(ids(historyBeforeDraft(history, replyDraft({ previousMessageId: 'a1' })))).toEqual(['u1', 'a1']);
    const sent = replyDraft({
      previousMessageId: 'a2',
      userMessage: stored('u3', 'a2'),
      assistantMessage: stored('a3', 'u3', 'assistant'),
    });
    const withStored = [...history, ...[stored('u3', 'a2'), stored('a3', 'u3', 'assistant')].map(toDisplayMessage)];
    expect(ids(historyBeforeDraft(withStored, sent))).toEqual(['u1', 'a1', 'u2', 'a2']);
    // The first message of a conversation attaches to nothing.
    expect(historyBeforeDraft(history, replyDraft({ previousMessageId: null }))).toEqual([]);
    // An anchor not read (before the oldest message read): nothing read comes before the exchange.
    expect(historyBeforeDraft(history, replyDraft({ previousMessageId: 'u0' }))).toEqual([]);
    expect(historyBeforeDraft(history, replyDraft({ regenerateOf: 'u0', pendingUserText: null }))).toEqual([]);
  });

  it('when regenerating, keeps the user message answered again and shows no new one', () => {
    const again = replyDraft({ regenerateOf: 'u2', previousMessageId: 'a1', pendingUserText: null, userMessage: stored('u2', 'a1') });
    expect(ids(historyBeforeDraft(history, again))).toEqual(['u1', 'a1', 'u2']);
    expect(draftUserMessage(again)).toBeNull();
  });

  it('shows the text sent, with its files, until the stored user message arrives', () => {
    const files = [{ object_store_object_id: 'f1', mime_type: 'image/png' }];
    expect(draftUserMessage(replyDraft({ pendingUserText: 'Hello', previousMessageId: 'a2', pendingFiles: files }))).toMatchObject({
      id: 'pending',
      text: 'Hello',
      isUser: true,
      previous_message_id: 'a2',
      files,
    });
    expect(draftUserMessage(replyDraft({ userMessage: stored('u3', 'a2') }))).toMatchObject({ id: 'u3', text: 'u3' });
    expect(draftUserMessage(replyDraft({ pendingUserText: null }))).toBeNull();
    expect(draftUserMessage(null)).toBeNull();
  });
});
