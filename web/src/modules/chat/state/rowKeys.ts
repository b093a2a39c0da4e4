/**
 * The list's key of a message. A reply streams in under a key of its own (no id yet); once stored,
 * its message keeps that key, so React keeps the reply's elements when the stored message replaces
 * the draft. The same goes for the user's message being sent.
 */
const keys = new Map<string, string>();

export const askKey = (draftId: string) => `ask-${draftId}`;
export const replyKey = (draftId: string) => `reply-${draftId}`;

/** A stored message takes the key its draft had. */
export function keepRowKey(messageId: string, key: string): void {
  keys.set(messageId, key);
}

export const rowKeyOf = (messageId: string): string => keys.get(messageId) ?? messageId;
