import { activeHistory, toConversationView, toMessageView, toSharedMessageView } from './views';
import { aConversation, aMessage } from '../testing/builders';

/** A tree of messages by id: [id, previous id]. */
const tree = (...links: [string, string | null][]) => links.map(([id, previousMessageId]) => ({ id, previousMessageId }));
const ids = (messages: { id: string }[]) => messages.map((m) => m.id);

describe('the active history (walked back from last_active_message_id)', () => {
  // u1 ─ a1 ─ u2 ─ a2          (the first branch)
  //         └ u2' ─ a2'        (an edit of u2: a sibling after a1)
  //      └ a1'                 (a regeneration of a1: a sibling after u1)
  const messages = tree(['u1', null], ['a1', 'u1'], ['u2', 'a1'], ['a2', 'u2'], ["u2'", 'a1'], ["a2'", "u2'"], ["a1'", 'u1']);

  it('is the path from the root to the message, oldest first', () => {
    expect(ids(activeHistory(messages, 'a2'))).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('follows the branch the message is on, leaving its siblings out', () => {
    expect(ids(activeHistory(messages, "a2'"))).toEqual(['u1', 'a1', "u2'", "a2'"]);
    expect(ids(activeHistory(messages, "a1'"))).toEqual(['u1', "a1'"]);
  });

  it('starts anywhere in the tree, the root included', () => {
    expect(ids(activeHistory(messages, 'u2'))).toEqual(['u1', 'a1', 'u2']);
    expect(ids(activeHistory(messages, 'u1'))).toEqual(['u1']);
  });

  it('is empty for a conversation without an active message, or an unknown one', () => {
    expect(activeHistory(messages, null)).toEqual([]);
    expect(activeHistory(messages, 'nope')).toEqual([]);
    expect(activeHistory([], 'a2')).toEqual([]);
  });

  it('stops where a link points at a message it does not have (another conversation, deleted)', () => {
    expect(ids(activeHistory(tree(['a', 'elsewhere'], ['b', 'a']), 'b'))).toEqual(['a', 'b']);
  });

  it('stops at a cycle instead of looping', () => {
    expect(ids(activeHistory(tree(['a', 'c'], ['b', 'a'], ['c', 'b']), 'c'))).toEqual(['a', 'b', 'c']);
    expect(ids(activeHistory(tree(['self', 'self']), 'self'))).toEqual(['self']);
  });

  it('returns the messages it was given, not copies', () => {
    const given = tree(['a', null], ['b', 'a']);
    expect(activeHistory(given, 'b')[1]).toBe(given[1]);
  });
});

describe('what the client receives', () => {
  it('names a conversation with the spec fields, times as ISO strings', () => {
    const conversation = aConversation({
      id: 'c1',
      title: 'Trip',
      lastActiveMessageId: 'm9',
      lastMessageAt: new Date('2026-01-02T03:04:05Z'),
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect(toConversationView(conversation)).toEqual({
      chat_id: 'c1',
      conversation_title: 'Trip',
      last_message_timestamp: '2026-01-02T03:04:05.000Z',
      last_active_message_id: 'm9',
      is_commercial: false,
      temporary: false,
      expires_at: null,
      project_id: null,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(toConversationView(aConversation({ lastMessageAt: null })).last_message_timestamp).toBeNull();
  });

  it('gives every message an empty file list and no verbose feedback unless it has them', () => {
    const view = toMessageView(aMessage({ id: 'm1', metadata: { model: 'fast' } }));
    expect(view.metadata).toEqual({ verbose_feedback: null, files: [], model: 'fast' });
    const files = [{ object_store_object_id: 'f1', mime_type: 'image/png' }];
    expect(toMessageView(aMessage({ metadata: { files, verbose_feedback: 'Too long' } })).metadata).toEqual({
      verbose_feedback: 'Too long',
      files,
    });
  });

  it('shows a shared message without its author, feedback or private metadata (memories, model, reasoning)', () => {
    const message = aMessage({
      authorUserId: 'owner',
      feedback: 'dislike',
      metadata: {
        memory_ids: ['m1'],
        model: 'fast',
        reasoning: 'secret',
        rewritten_query: 'q',
        verbose_feedback: 'meh',
        files: [{ object_store_object_id: 'f', mime_type: 'text/plain' }],
        incomplete: true,
      },
    });
    const shared = toSharedMessageView(message);
    expect(shared).toMatchObject({ author_user_id: null, feedback: null, content: message.content });
    expect(shared.metadata).toEqual({ files: [{ object_store_object_id: 'f', mime_type: 'text/plain' }], incomplete: true });
    expect(toSharedMessageView(aMessage({ metadata: {} })).metadata).toEqual({ files: [] });
  });
});
