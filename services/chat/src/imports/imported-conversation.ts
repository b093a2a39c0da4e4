import type { ImportSkipped, ImportSource } from '@app/contracts/chat';

/** A file a message refers to: found in the zip by its id (ChatGPT), or text the export carries (Claude). */
export type ImportedAttachment = { kind: 'zip'; fileId: string; name: string | null } | { kind: 'text'; name: string; text: string };

/** One message of an export, in the product's terms: a node of the conversation's tree. */
export interface ImportedMessage {
  /** Its id in the export. */
  sourceId: string;
  /** The export id of the message it follows (null: a first message); siblings are branches. */
  parentSourceId: string | null;
  sender: 'user' | 'assistant';
  content: string;
  createdAt: Date | null;
  attachments: ImportedAttachment[];
  /** The model that wrote it, when the export says. */
  model: string | null;
}

/** What could not be represented, before it is summed up per conversation. */
export type SkippedItem = Omit<ImportSkipped, 'count' | 'conversation'>;

/** One conversation of an export, ready to be written: messages parents first. */
export interface ImportedConversation {
  source: ImportSource;
  sourceId: string;
  title: string | null;
  createdAt: Date | null;
  updatedAt: Date | null;
  /** Parents before children (the order they are written in). */
  messages: ImportedMessage[];
  /** The message shown (the active branch's leaf): the export's own choice, else the newest leaf. */
  activeSourceId: string | null;
  skipped: SkippedItem[];
}

/** A time from seconds since the epoch (ChatGPT) or an ISO string (Claude); null when absent or nonsense. */
export function dateOf(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return null;
  // Nothing before 2015 or more than a day ahead is a real time of a chat.
  if (date.getTime() < Date.UTC(2015, 0, 1) || date.getTime() > Date.now() + 86_400_000) return null;
  return date;
}

/** Orders a tree's nodes parents first (roots in their order, children in theirs); nodes in a cycle are left out. */
export function parentsFirst<T extends { sourceId: string; parentSourceId: string | null }>(nodes: T[]): T[] {
  const ids = new Set(nodes.map((n) => n.sourceId));
  const children = new Map<string | null, T[]>();
  for (const node of nodes) {
    const parent = node.parentSourceId !== null && ids.has(node.parentSourceId) ? node.parentSourceId : null;
    node.parentSourceId = parent;
    children.set(parent, [...(children.get(parent) ?? []), node]);
  }
  const ordered: T[] = [];
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    ordered.push(node);
    stack.push(...[...(children.get(node.sourceId) ?? [])].reverse());
  }
  return ordered;
}

/** The newest leaf of a tree (by time, else the last in order): where a conversation without a choice of its own opens. */
export function newestLeaf(messages: ImportedMessage[]): string | null {
  const parents = new Set(messages.map((m) => m.parentSourceId));
  const leaves = messages.filter((m) => !parents.has(m.sourceId));
  let best: ImportedMessage | null = null;
  for (const leaf of leaves) {
    if (!best || (leaf.createdAt?.getTime() ?? 0) >= (best.createdAt?.getTime() ?? 0)) best = leaf;
  }
  return best?.sourceId ?? null;
}
