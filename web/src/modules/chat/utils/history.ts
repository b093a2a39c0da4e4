import type { FileReference, Message } from '@app/contracts/chat';

/** A message as displayed (spec section 3). */
export type DisplayMessage = {
  id: string;
  text: string;
  isUser: boolean;
  sender: string;
  author_user_id: string | null;
  expert_id: string | null;
  expert_name: string | null;
  feedback: 'like' | 'dislike' | null;
  verbose_feedback: string | null;
  previous_message_id: string | null;
  files: FileReference[];
  chat_id: string;
  created_at: string;
  metadata: Message['metadata'];
};

type MessageBasics = Pick<Message, 'message_id' | 'chat_id' | 'content' | 'sender' | 'previous_message_id' | 'created_at'>;

/** A message with no author, expert, feedback or metadata unless given (the user's text before the server stores it). */
export const bareMessage = (basics: MessageBasics & Partial<Message>): Message => ({
  author_user_id: null,
  expert_id: null,
  expert_name: null,
  feedback: null,
  hidden: false,
  metadata: {},
  ...basics,
});

export function toDisplayMessage(message: Message): DisplayMessage {
  return {
    id: String(message.message_id),
    text: message.content,
    isUser: message.sender === 'user',
    sender: message.sender,
    author_user_id: message.author_user_id,
    expert_id: message.expert_id,
    expert_name: message.expert_name,
    feedback: message.feedback,
    verbose_feedback: message.metadata?.verbose_feedback ?? null,
    previous_message_id: message.previous_message_id,
    files: message.metadata?.files ?? [],
    chat_id: message.chat_id,
    created_at: message.created_at,
    metadata: message.metadata ?? {},
  };
}

const byCreated = (a: { created_at: string }, b: { created_at: string }) => a.created_at.localeCompare(b.created_at);

/** The newest message with no child: where the latest branch ends. */
function newestLeaf(messages: DisplayMessage[]): DisplayMessage | undefined {
  const parents = new Set(messages.map((m) => m.previous_message_id).filter(Boolean));
  return (
    messages
      .filter((m) => !parents.has(m.id))
      .sort(byCreated)
      .at(-1) ?? [...messages].sort(byCreated).at(-1)
  );
}

/**
 * The active history: walking back through previous_message_id from the conversation's last active
 * message (or, when it is unknown, from the newest leaf), oldest first.
 */
export function activeHistory(messages: DisplayMessage[], lastActiveMessageId: string | null | undefined): DisplayMessage[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  let current = (lastActiveMessageId && byId.get(lastActiveMessageId)) || newestLeaf(messages);
  const chain: DisplayMessage[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    chain.push(current);
    current = current.previous_message_id ? byId.get(current.previous_message_id) : undefined;
  }
  return chain.reverse();
}

/**
 * Where the active branch ends: the conversation list's last active message, unless the newest
 * page read ends further down that same branch (`pageLeaf` follows it: a reply stored after the
 * list was read, by this tab or another, or while the app was starting). A page's end on another
 * branch is older than the list's (a branch switched to, the pages not read again yet).
 */
export function activeEnd(
  messages: DisplayMessage[],
  listed: string | null | undefined,
  pageLeaf: string | null | undefined,
): string | null | undefined {
  if (!listed || !pageLeaf || listed === pageLeaf) return listed ?? pageLeaf;
  const byId = new Map(messages.map((m) => [m.id, m]));
  const seen = new Set<string>();
  for (let id: string | null | undefined = pageLeaf; id && !seen.has(id); id = byId.get(id)?.previous_message_id) {
    if (id === listed) return pageLeaf;
    seen.add(id);
  }
  return listed;
}

/** The alternatives of a message: the same parent and the same side, oldest first. */
export function siblingsOf(message: DisplayMessage, messages: DisplayMessage[]): DisplayMessage[] {
  return messages.filter((m) => m.previous_message_id === message.previous_message_id && m.isUser === message.isUser).sort(byCreated);
}

/** Where a branch leads: from a message down through its newest child at each step. */
export function latestLeafFrom(startId: string, messages: DisplayMessage[]): string {
  const children = new Map<string, DisplayMessage[]>();
  for (const m of messages) {
    if (!m.previous_message_id) continue;
    const list = children.get(m.previous_message_id) ?? [];
    list.push(m);
    children.set(m.previous_message_id, list);
  }
  let current = startId;
  const seen = new Set<string>();
  while (!seen.has(current)) {
    seen.add(current);
    const next = children.get(current)?.sort(byCreated).at(-1);
    if (!next) break;
    current = next.id;
  }
  return current;
}
