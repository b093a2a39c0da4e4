import { Injectable } from '@nestjs/common';
import type { EventContract, PayloadOf } from '@app/contracts';
import { SMS_EVENTS } from '@app/contracts/sms';
import { Outbox } from '@app/platform';
import { DataSource, type EntityManager } from 'typeorm';
import type { Queryable } from './queryable';

/** A text to put in the outbound queue. */
export interface QueuedText {
  id: string;
  to: string;
  from: string;
  body: string;
  purpose: 'notice' | 'reply' | 'relay' | 'confirmation';
  provider: string;
  userId: string | null;
  mediaUrls?: string[];
  segments: number;
  encoding: string;
  inboundId?: string | null;
  groupId?: string | null;
}

/** A notice owed once per event (`kind` + `eventKey`), recorded with the text that carries it. */
export interface NoticeRecord {
  kind: 'usage' | 'limit' | 'credit';
  eventKey: string;
  text: QueuedText;
}

/** A keyword reply sent at most once per window to a number. */
export type KeywordReplyKind = 'help' | 'start' | 'join_list' | 'join_code' | 'picture';

export interface GroupMessageRow {
  id: string;
  groupId: string;
  senderUserId: string | null;
  senderLabel: string;
  isAssistant: boolean;
  body: string;
}

/** What one transaction of the channel may write. */
export interface ChannelTransaction {
  /** The transaction itself, for a repository's writes that belong to it. */
  readonly db: Queryable;
  queue(text: QueuedText): Promise<void>;
  /** Records the notice and queues its text, unless this event was already noticed: whether it was new. */
  notice(notice: NoticeRecord): Promise<boolean>;
  /** Counts `texts` against the account's month; answers the new count. */
  countUsage(userId: string, period: string, texts?: number): Promise<number>;
  /** An event (contract-checked) sent if and only if the transaction commits. */
  event<C extends EventContract>(contract: C, payload: PayloadOf<C>, eventId: string): Promise<void>;
  groupMessage(message: GroupMessageRow): Promise<void>;
  /** Sets the number's opt-out; answers whether it changed (a second STOP gets no second confirmation). */
  setOptedOut(phone: string, userId: string | null, optedOut: boolean): Promise<boolean>;
  /**
   * Whether a keyword reply of this kind may go to the number now (none in the last `windowHours`);
   * when it may, the window starts again now. Holds the number's lock until the transaction ends.
   */
  claimKeywordReply(phone: string, kind: KeywordReplyKind, userId: string | null, windowHours: number): Promise<boolean>;
  /** Serialises this number's budgets between replicas until the transaction ends. */
  lockNumber(phone: string): Promise<void>;
}

/**
 * The channel's unit of work: everything one answer writes (texts queued, usage, notices, opt-out,
 * group messages, memberships, events) commits together or not at all. The texts it queued are
 * answered with the result, for the caller to hand to the sender once committed (the queue's
 * events stay the durable path: a crash, a retry).
 */
@Injectable()
export class ChannelUnitOfWork {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  async transaction<T>(work: (tx: ChannelTransaction) => Promise<T>): Promise<{ result: T; queued: string[] }> {
    const queued: string[] = [];
    const result = await this.dataSource.transaction((manager) => work(this.transactionOf(manager, queued)));
    return { result, queued };
  }

  private transactionOf(manager: EntityManager, queued: string[]): ChannelTransaction {
    const lockNumber = async (phone: string) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtextextended('sms-number:' || $1, 0))", [phone]);
    };
    const queue = async (text: QueuedText) => {
      queued.push(text.id);
      await manager.query(
        `INSERT INTO outbound_message (id, to_number, from_number, user_id, body, purpose, provider, status, media_urls, segments, encoding, inbound_id, group_id, status_updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9, $10, $11, $12, now())`,
        [
          text.id,
          text.to,
          text.from,
          text.userId,
          text.body,
          text.purpose,
          text.provider,
          JSON.stringify(text.mediaUrls ?? []),
          text.segments,
          text.encoding,
          text.inboundId ?? null,
          text.groupId ?? null,
        ],
      );
      // The message's id is the queue's idempotency key: JetStream drops a second publish of it, the consumer sends it once.
      await this.outbox.enqueue(manager, SMS_EVENTS.outbound, { message_id: text.id }, { eventId: `sms-outbound:${text.id}` });
    };
    return {
      db: manager,
      queue,
      lockNumber,
      notice: async ({ kind, eventKey, text }) => {
        const inserted: unknown[] = await manager.query(
          `INSERT INTO sms_notice (id, user_id, phone_number, kind, event_key, outbound_id) VALUES ($1, $2, $3, $4, $5, $1)
           ON CONFLICT (kind, event_key) DO NOTHING RETURNING id`,
          [text.id, text.userId, text.to, kind, eventKey],
        );
        if (inserted.length === 0) return false;
        await queue(text);
        return true;
      },
      countUsage: async (userId, period, texts = 1) => {
        const [row]: { texts_used: number }[] = await manager.query(
          `INSERT INTO sms_usage (user_id, period, texts_used) VALUES ($1, $2, $3)
           ON CONFLICT (user_id, period) DO UPDATE SET texts_used = sms_usage.texts_used + EXCLUDED.texts_used RETURNING texts_used`,
          [userId, period, texts],
        );
        return row.texts_used;
      },
      event: async (contract, payload, eventId) => {
        await this.outbox.enqueue(manager, contract, payload, { eventId });
      },
      groupMessage: async (m) => {
        await manager.query(
          'INSERT INTO sms_group_message (id, group_id, sender_user_id, sender_label, is_assistant, body) VALUES ($1, $2, $3, $4, $5, $6)',
          [m.id, m.groupId, m.senderUserId, m.senderLabel, m.isAssistant, m.body],
        );
      },
      setOptedOut: async (phone, userId, optedOut) => {
        const rows: unknown[] = await manager.query(
          `INSERT INTO sms_number (phone_number, user_id, opted_out, opted_out_at) VALUES ($1, $2, $3, CASE WHEN $3 THEN now() END)
           ON CONFLICT (phone_number) DO UPDATE SET opted_out = $3, opted_out_at = CASE WHEN $3 THEN now() END, updated_at = now()
           WHERE sms_number.opted_out IS DISTINCT FROM $3 RETURNING phone_number`,
          [phone, userId, optedOut],
        );
        // A first STOP from a number never seen is a change too (the insert).
        return rows.length > 0;
      },
      claimKeywordReply: async (phone, kind, userId, windowHours) => {
        await lockNumber(phone);
        const rows: unknown[] = await manager.query(
          `INSERT INTO sms_keyword_reply (phone_number, kind, user_id, sent_at) VALUES ($1, $2, $3, now())
           ON CONFLICT (phone_number, kind) DO UPDATE SET sent_at = now(), user_id = EXCLUDED.user_id
           WHERE sms_keyword_reply.sent_at < now() - make_interval(hours => $4) RETURNING phone_number`,
          [phone, kind, userId, windowHours],
        );
        return rows.length > 0;
      },
    };
  }
}
