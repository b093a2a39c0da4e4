import type { InboundRow } from '../store/inbound.repository';
import type { ChannelTransaction } from '../store/channel-unit-of-work';
import type { Membership } from '../store/groups.repository';
import type { Keyword } from '../keywords';

/** Where a text goes, decided from the text, the number's state and the number it was sent to. */
export type InboundRoute =
  /** Sent to a number that is not the service's (neither the assistant's nor a group's): stored, not answered. */
  | { kind: 'refused'; status: 'refused_unknown_number' }
  | { kind: 'keyword'; keyword: Keyword; word: string }
  /** The number opted out: stored, not answered. */
  | { kind: 'ignored'; status: 'ignored_opted_out' }
  /** YES to the invitations waiting for this number, or `JOIN 4821` for one of them. */
  | { kind: 'join'; code: string | null }
  /** A member's text to the group they have on this number. */
  | { kind: 'group'; membership: Membership }
  /** To a group number by someone with no group there. */
  | { kind: 'not_a_member'; status: 'not_a_member' }
  /** A one-to-one text to the assistant. */
  | { kind: 'reply' };

export type Write = (tx: ChannelTransaction) => Promise<void>;

/**
 * One incoming text on its way through the inbound pipeline. The steps fill it in order: the
 * account of the number, the route, then the answer, which may take its time (the model) but
 * writes nothing itself: it adds what to write, and the commit step writes it all in one
 * transaction (texts queued, usage, notices, opt-out, memberships, events), then sends.
 */
export interface InboundContext {
  readonly text: InboundRow;
  /** The number's account, as the auth service says (made on a first text). */
  account: { userId: string; name: string | null } | null;
  route: InboundRoute | null;
  /** The outcome stored on the text (`answered`, `relayed`, `opted_out`, `refused_451`...). */
  status: string;
  /** The group the text was for, when it was one. */
  groupId: string | null;
  /** What the answer writes, in order, in one transaction. */
  readonly writes: Write[];
  /**
   * A second answer that follows the first once it is sent (a group's relay goes out at once; the
   * assistant's answer to the group follows when the model has answered): it adds writes of its own.
   */
  followUp: (() => Promise<void>) | null;
}

export function inboundContext(text: InboundRow): InboundContext {
  return { text, account: null, route: null, status: 'received', groupId: null, writes: [], followUp: null };
}

/** The account of the context's number (after the identify step). */
export function accountOf(ctx: InboundContext): { userId: string; name: string | null } {
  if (!ctx.account) throw new Error('The text has no account yet (identify runs first)');
  return ctx.account;
}
