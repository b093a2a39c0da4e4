/** A message's place in its conversation, without its words: what the branch reads walk. */
export interface TreeNode {
  id: string;
  previousMessageId: string | null;
  sender: string;
  hidden: boolean;
  createdAt: Date;
  /** A reply being written now (its row streaming, a process holding its lease), with its text as last saved: not on any branch yet. */
  writing?: { content: string };
}

/** A message with other versions: all of them (the same parent, the same side), oldest first, each with where its branch leads. */
export interface NodeVersions {
  messageId: string;
  versions: { messageId: string; leafId: string }[];
}

const older = (a: TreeNode, b: TreeNode) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
const side = (node: TreeNode) => node.sender === 'user';

/**
 * A conversation's messages as the tree they form (each points at the one it follows): its
 * branches, where each leads, and pages of one branch walked back from its end. A cycle (which the
 * schema cannot make, but data can be edited) stops a walk.
 */
export class MessageTree {
  private readonly byId = new Map<string, TreeNode>();
  /** The children of each message (roots under ''), oldest first. */
  private readonly children = new Map<string, TreeNode[]>();
  /** The newest reply being written to each user message that has one. */
  private readonly writing = new Map<string, { id: string; content: string }>();

  constructor(nodes: TreeNode[]) {
    for (const node of [...nodes].sort(older)) {
      if (node.writing) {
        if (node.previousMessageId) this.writing.set(node.previousMessageId, { id: node.id, content: node.writing.content });
        continue;
      }
      this.byId.set(node.id, node);
      const parent = node.previousMessageId ?? '';
      const list = this.children.get(parent);
      if (list) list.push(node);
      else this.children.set(parent, [node]);
    }
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Whether this message is the user's (false for a message not in the tree). */
  isUsers(id: string): boolean {
    const node = this.byId.get(id);
    return !!node && side(node);
  }

  parentOf(id: string): string | null {
    return this.byId.get(id)?.previousMessageId ?? null;
  }

  /**
   * The user message a branch ending at `leaf` is being answered at now, when it is: the leaf
   * itself (its first reply on its way) or, for a reply, the user message it answers (another
   * version of it on its way: a regenerate), with that reply and its text as last saved. Null when
   * no reply is being written there.
   */
  answeringAt(leaf: string): { userMessageId: string; reply: { id: string; content: string } } | null {
    const user = this.isUsers(leaf) ? leaf : this.parentOf(leaf);
    const reply = user && this.isUsers(user) ? this.writing.get(user) : undefined;
    return user && reply ? { userMessageId: user, reply } : null;
  }

  /** Where a branch leads: from a message down through its newest child at each step. */
  leafFrom(id: string): string {
    let current = id;
    const seen = new Set<string>();
    while (!seen.has(current)) {
      seen.add(current);
      const next = this.children.get(current)?.at(-1);
      if (!next) break;
      current = next.id;
    }
    return current;
  }

  /** Whether `id` is on the branch that ends at `leafId` (the leaf itself or one of its ancestors). */
  leadsTo(id: string, leafId: string | null): boolean {
    const seen = new Set<string>();
    for (let current = leafId; current && !seen.has(current); current = this.parentOf(current)) {
      if (current === id) return true;
      seen.add(current);
    }
    return false;
  }

  /** The end of the active branch: the conversation's last active message, or (unknown or gone) the newest message without a child. */
  activeLeaf(lastActiveId: string | null): string | null {
    if (lastActiveId && this.byId.has(lastActiveId)) return lastActiveId;
    let newest: TreeNode | null = null;
    for (const node of this.byId.values()) if (!this.children.has(node.id) && (!newest || older(newest, node) < 0)) newest = node;
    return newest?.id ?? null;
  }

  /**
   * Up to `limit` visible messages walking back from `fromId` (itself included), oldest first, and
   * whether the branch has visible messages older than those.
   */
  walk(fromId: string | null, limit: number): { ids: string[]; hasMore: boolean } {
    const ids: string[] = [];
    const seen = new Set<string>();
    let hasMore = false;
    for (let id = fromId; id && !seen.has(id);) {
      const node = this.byId.get(id);
      if (!node) break;
      seen.add(id);
      if (!node.hidden) {
        if (ids.length === limit) {
          hasMore = true;
          break;
        }
        ids.push(id);
      }
      id = node.previousMessageId;
    }
    return { ids: ids.reverse(), hasMore };
  }

  /** The versions of those of these messages that have several. */
  versionsOf(ids: string[]): NodeVersions[] {
    const result: NodeVersions[] = [];
    for (const id of ids) {
      const node = this.byId.get(id);
      if (!node) continue;
      const siblings = (this.children.get(node.previousMessageId ?? '') ?? []).filter((s) => side(s) === side(node) && !s.hidden);
      if (siblings.length < 2) continue;
      result.push({ messageId: id, versions: siblings.map((s) => ({ messageId: s.id, leafId: this.leafFrom(s.id) })) });
    }
    return result;
  }
}
