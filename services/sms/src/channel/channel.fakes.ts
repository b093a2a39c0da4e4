/**
 * Typed fakes of the text channel's edges, for its unit tests (never built into the service: see
 * tsconfig's exclude). Each records what the code under test did, so a test reads as its scenario.
 */
import type { EventContract, PayloadOf } from '@app/contracts';
import type { InboundRow } from './store/inbound.repository';
import type { ChannelTransaction, GroupMessageRow, KeywordReplyKind, NoticeRecord, QueuedText } from './store/channel-unit-of-work';
import type { Queryable } from './store/queryable';

/** A transaction that keeps what it was asked to write. */
export class FakeTransaction implements ChannelTransaction {
  readonly db: Queryable = {
    query: () => Promise.reject(new Error('The fake transaction runs no SQL: fake the repository instead')),
  };
  readonly queued: QueuedText[] = [];
  readonly notices: NoticeRecord[] = [];
  readonly usage = new Map<string, number>();
  readonly events: { subject: string; payload: unknown }[] = [];
  readonly groupMessages: GroupMessageRow[] = [];
  readonly optedOut = new Set<string>();
  readonly locked: string[] = [];
  /** Keyword replies already sent in their window: `phone kind`. */
  readonly keywordReplies = new Set<string>();

  async queue(text: QueuedText): Promise<void> {
    this.queued.push(text);
  }
  async notice(notice: NoticeRecord): Promise<boolean> {
    if (this.notices.some((n) => n.kind === notice.kind && n.eventKey === notice.eventKey)) return false;
    this.notices.push(notice);
    await this.queue(notice.text);
    return true;
  }
  async countUsage(userId: string, period: string, texts = 1): Promise<number> {
    const key = `${userId}:${period}`;
    this.usage.set(key, (this.usage.get(key) ?? 0) + texts);
    return this.usage.get(key)!;
  }
  async event<C extends EventContract>(contract: C, payload: PayloadOf<C>): Promise<void> {
    this.events.push({ subject: contract.subject, payload });
  }
  async groupMessage(message: GroupMessageRow): Promise<void> {
    this.groupMessages.push(message);
  }
  async setOptedOut(phone: string, _userId: string | null, optedOut: boolean): Promise<boolean> {
    const was = this.optedOut.has(phone);
    if (optedOut) this.optedOut.add(phone);
    else this.optedOut.delete(phone);
    return was !== optedOut;
  }
  async claimKeywordReply(phone: string, kind: KeywordReplyKind): Promise<boolean> {
    const key = `${phone} ${kind}`;
    if (this.keywordReplies.has(key)) return false;
    this.keywordReplies.add(key);
    return true;
  }
  async lockNumber(phone: string): Promise<void> {
    this.locked.push(phone);
  }

  /** The bodies queued to one number. */
  bodiesTo(phone: string): string[] {
    return this.queued.filter((t) => t.to === phone).map((t) => t.body);
  }
}

/** An incoming text as the pipeline receives it once claimed. */
export function inboundText(text: Partial<InboundRow> & Pick<InboundRow, 'from' | 'to' | 'body'>): InboundRow {
  return { id: 'in-1', messageSid: 'SM0123456789', userId: null, media: [], status: 'processing', createdAt: new Date(), ...text };
}
