import { Injectable } from '@nestjs/common';
import type { EventContract, PayloadOf } from '@app/contracts';
import { SMS_EVENTS } from '@app/contracts/sms';
import { Outbox } from '@app/platform';
import { DataSource, type EntityManager } from 'typeorm';

export interface InboundRow {
  id: string;
  messageSid: string;
  from: string;
  to: string;
  userId: string | null;
  body: string;
  media: { url: string; contentType: string }[];
  status: string;
  createdAt: Date;
}

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

export interface OutboundRow {
  id: string;
  to: string;
  from: string | null;
  body: string;
  purpose: string;
  provider: string;
  status: string;
  attempts: number;
  mediaUrls: string[];
  userId: string | null;
}

/** A notice owed once per event (`kind` + `eventKey`), recorded with the text that carries it. */
export interface NoticeRecord {
  kind: 'usage' | 'limit' | 'credit';
  eventKey: string;
  text: QueuedText;
}

/** What one transaction of the channel may write. */
export interface ChannelTransaction {
  queue(text: QueuedText): Promise<void>;
  /** Records the notice and queues its text, unless this event was already noticed: whether it was new. */
  notice(notice: NoticeRecord): Promise<boolean>;
  /** Counts one reply against the month; answers the new count. */
  countUsage(userId: string, period: string): Promise<number>;
  /** An event (contract-checked) sent if and only if the transaction commits. */
  event<C extends EventContract>(contract: C, payload: PayloadOf<C>, eventId: string): Promise<void>;
  /**
   * Group invitation texts sent to a number in the last day; holds the number's lock until the
   * transaction ends, so two joins at once cannot both pass the limit.
   */
  joinTextsToday(phone: string): Promise<number>;
  groupMessage(message: {
    id: string;
    groupId: string;
    senderUserId: string | null;
    senderLabel: string;
    isAssistant: boolean;
    body: string;
  }): Promise<void>;
}

const inboundOf = (r: Record<string, unknown>): InboundRow => ({
  id: r.id as string,
  messageSid: r.message_sid as string,
  from: r.from_number as string,
  to: r.to_number as string,
  userId: (r.user_id as string | null) ?? null,
  body: r.body as string,
  media: (r.media as InboundRow['media']) ?? [],
  status: r.status as string,
  createdAt: new Date(r.created_at as string),
});

/** The text channel's tables (schema `sms`): the only place it touches the database. */
@Injectable()
export class ChannelRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  // ---- incoming texts ---------------------------------------------------------------------------

  /** Stores an incoming text once per MessageSid: false when Twilio is retrying one already stored. */
  async insertInbound(row: Omit<InboundRow, 'userId' | 'status' | 'createdAt'>): Promise<boolean> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO inbound_message (id, message_sid, from_number, to_number, body, media, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'received') ON CONFLICT (message_sid) DO NOTHING RETURNING id`,
      [row.id, row.messageSid, row.from, row.to, row.body, JSON.stringify(row.media)],
    );
    return inserted.length > 0;
  }

  /** Takes an incoming text to answer, for `leaseMs` (another replica takes it over only after a crash). */
  async claimInbound(id: string, leaseMs: number): Promise<InboundRow | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE inbound_message SET status = 'processing', lease_until = now() + make_interval(secs => $2)
       WHERE id = $1 AND (status = 'received' OR (status = 'processing' AND lease_until < now())) RETURNING *`,
      [id, leaseMs / 1000],
    );
    return rows[0] ? inboundOf(rows[0]) : null;
  }

  /** Incoming texts left unanswered (a crash, a restart): received long enough ago, or whose lease ran out. */
  async strandedInbound(olderThanMs: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM inbound_message WHERE (status = 'received' AND created_at < now() - make_interval(secs => $1))
         OR (status = 'processing' AND lease_until < now()) ORDER BY created_at LIMIT $2`,
      [olderThanMs / 1000, limit],
    );
    return rows.map((r) => r.id);
  }

  async finishInbound(id: string, status: string, extra: { userId?: string | null; groupId?: string | null; error?: string | null } = {}) {
    await this.dataSource.query(
      `UPDATE inbound_message SET status = $2, lease_until = NULL, user_id = COALESCE($3, user_id), group_id = COALESCE($4, group_id),
       error = $5 WHERE id = $1`,
      [id, status, extra.userId ?? null, extra.groupId ?? null, extra.error ?? null],
    );
  }

  async inboundCount(): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query('SELECT count(*)::int AS n FROM inbound_message');
    return row?.n ?? 0;
  }

  // ---- numbers, threads, usage --------------------------------------------------------------------

  async number(phone: string): Promise<{ userId: string | null; optedOut: boolean } | null> {
    const [row]: { user_id: string | null; opted_out: boolean }[] = await this.dataSource.query(
      'SELECT user_id, opted_out FROM sms_number WHERE phone_number = $1',
      [phone],
    );
    return row ? { userId: row.user_id, optedOut: row.opted_out } : null;
  }

  async linkNumber(phone: string, userId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sms_number (phone_number, user_id) VALUES ($1, $2)
       ON CONFLICT (phone_number) DO UPDATE SET user_id = EXCLUDED.user_id, updated_at = now() WHERE sms_number.user_id IS DISTINCT FROM EXCLUDED.user_id`,
      [phone, userId],
    );
  }

  /** Sets the opt-out state; answers whether it changed (so a second STOP gets no second confirmation). */
  async setOptedOut(phone: string, userId: string | null, optedOut: boolean): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO sms_number (phone_number, user_id, opted_out, opted_out_at) VALUES ($1, $2, $3, CASE WHEN $3 THEN now() END)
       ON CONFLICT (phone_number) DO UPDATE SET opted_out = $3, opted_out_at = CASE WHEN $3 THEN now() END, updated_at = now()
       WHERE sms_number.opted_out IS DISTINCT FROM $3 RETURNING phone_number`,
      [phone, userId, optedOut],
    );
    // A first STOP from a number never seen is a change too (the insert).
    return rows.length > 0;
  }

  async numberOfUser(userId: string): Promise<{ phone: string; optedOut: boolean } | null> {
    const [row]: { phone_number: string; opted_out: boolean }[] = await this.dataSource.query(
      'SELECT phone_number, opted_out FROM sms_number WHERE user_id = $1 ORDER BY updated_at DESC LIMIT 1',
      [userId],
    );
    return row ? { phone: row.phone_number, optedOut: row.opted_out } : null;
  }

  async thread(userId: string, serviceNumber: string): Promise<string | null> {
    const [row]: { chat_id: string }[] = await this.dataSource.query(
      'SELECT chat_id FROM sms_thread WHERE user_id = $1 AND service_number = $2',
      [userId, serviceNumber],
    );
    return row?.chat_id ?? null;
  }

  /** Records the thread's conversation; answers the one kept when two texts raced to create it. */
  async saveThread(thread: { id: string; userId: string; phone: string; serviceNumber: string; chatId: string }): Promise<string> {
    await this.dataSource.query(
      `INSERT INTO sms_thread (id, user_id, phone_number, service_number, chat_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, service_number) DO NOTHING`,
      [thread.id, thread.userId, thread.phone, thread.serviceNumber, thread.chatId],
    );
    return (await this.thread(thread.userId, thread.serviceNumber)) ?? thread.chatId;
  }

  async usage(userId: string, period: string): Promise<number> {
    const [row]: { texts_used: number }[] = await this.dataSource.query(
      'SELECT texts_used FROM sms_usage WHERE user_id = $1 AND period = $2',
      [userId, period],
    );
    return row?.texts_used ?? 0;
  }

  async noticeSent(kind: string, eventKey: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM sms_notice WHERE kind = $1 AND event_key = $2', [kind, eventKey]);
    return rows.length > 0;
  }

  // ---- the outbound queue -------------------------------------------------------------------------

  /**
   * Runs `work` in one transaction: the texts it queues are sent if and only if it commits. Once it
   * has committed, they are handed to the sender at once, in order, by the caller (see `onCommitted`):
   * independent numbers are sent in parallel, each number's texts in order; the queue's event stays
   * the durable path (a crash, a retry), and the claim makes sure a text goes out once.
   */
  async transaction<T>(work: (tx: ChannelTransaction) => Promise<T>): Promise<T> {
    const queued: string[] = [];
    const result = await this.dataSource.transaction((manager) => work(this.transactionOf(manager, queued)));
    if (queued.length && this.committed) await this.committed(queued);
    return result;
  }

  private committed?: (messageIds: string[]) => Promise<void>;

  /** What runs with the ids of the texts a transaction queued, once it has committed (the outbound queue's fast path). */
  onCommitted(listener: (messageIds: string[]) => Promise<void>): void {
    this.committed = listener;
  }

  /** Puts a text back in the queue's events (a retry after the fast path met a Twilio 5xx/429): the consumer retries it with back-off. */
  async requeue(messageId: string, attempt: number): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.outbox.enqueue(manager, SMS_EVENTS.outbound, { message_id: messageId }, { eventId: `sms-outbound:${messageId}:${attempt}` }),
    );
  }

  private transactionOf(manager: EntityManager, queued: string[] = []): ChannelTransaction {
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
      queue,
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
      joinTextsToday: async (phone) => {
        await manager.query("SELECT pg_advisory_xact_lock(hashtextextended('sms-join:' || $1, 0))", [phone]);
        const [row]: { n: number }[] = await manager.query(
          `SELECT count(*)::int AS n FROM outbound_message WHERE to_number = $1 AND purpose = 'confirmation' AND group_id IS NOT NULL
             AND inbound_id IS NULL AND created_at > now() - interval '1 day'`,
          [phone],
        );
        return row?.n ?? 0;
      },
      countUsage: async (userId, period) => {
        const [row]: { texts_used: number }[] = await manager.query(
          `INSERT INTO sms_usage (user_id, period, texts_used) VALUES ($1, $2, 1)
           ON CONFLICT (user_id, period) DO UPDATE SET texts_used = sms_usage.texts_used + 1 RETURNING texts_used`,
          [userId, period],
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
    };
  }

  /**
   * Takes a queued text to send: while it is pending (Twilio's own `queued` means sent to Twilio) or retrying, or when a send was left half-way by a
   * crash longer ago than any send can take. Null: already sent, failed for good, or being sent.
   */
  async claimOutbound(id: string, staleAfterMs: number): Promise<OutboundRow | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE outbound_message SET status = 'sending', attempts = attempts + 1, status_updated_at = now()
       WHERE id = $1 AND provider_message_id IS NULL
         AND (status IN ('pending', 'retrying') OR (status = 'sending' AND status_updated_at < now() - make_interval(secs => $2)))
       RETURNING id, to_number, from_number, body, purpose, provider, status, attempts, media_urls, user_id`,
      [id, staleAfterMs / 1000],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id as string,
      to: r.to_number as string,
      from: (r.from_number as string | null) ?? null,
      body: r.body as string,
      purpose: r.purpose as string,
      provider: r.provider as string,
      status: r.status as string,
      attempts: r.attempts as number,
      mediaUrls: (r.media_urls as string[] | null) ?? [],
      userId: (r.user_id as string | null) ?? null,
    };
  }

  /** A stored text's status (`sending` while a worker holds it), or null when there is no such text. */
  async outboundStatus(id: string): Promise<string | null> {
    const rows: { status: string }[] = await this.dataSource.query('SELECT status FROM outbound_message WHERE id = $1', [id]);
    return rows[0]?.status ?? null;
  }

  async recordOutbound(id: string, outcome: { status: string; providerMessageId?: string | null; error?: string | null }): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbound_message SET status = $2, provider_message_id = COALESCE($3, provider_message_id), error = $4, status_updated_at = now()
       WHERE id = $1`,
      [id, outcome.status, outcome.providerMessageId ?? null, outcome.error ?? null],
    );
  }

  /** A delivery status callback: kept as received, and the message's status follows it. */
  async recordStatusCallback(sid: string, status: string, errorCode: string | null): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const [updated]: [{ id: string; user_id: string | null }[], number] = await manager.query(
        `UPDATE outbound_message SET status = $2, error_code = COALESCE($3, error_code), status_updated_at = now()
         WHERE provider_message_id = $1 RETURNING id, user_id`,
        [sid, status, errorCode],
      );
      const message = updated[0];
      await manager.query(
        'INSERT INTO sms_status_callback (message_sid, outbound_id, user_id, status, error_code) VALUES ($1, $2, $3, $4, $5)',
        [sid, message?.id ?? null, message?.user_id ?? null, status, errorCode],
      );
      return Boolean(message);
    });
  }

  // ---- settings -----------------------------------------------------------------------------------

  /** A setting made once and kept (the development signing key): every replica reads the same. */
  async setting(key: string, make: () => string): Promise<string> {
    await this.dataSource.query('INSERT INTO sms_setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, make()]);
    const [row]: { value: string }[] = await this.dataSource.query('SELECT value FROM sms_setting WHERE key = $1', [key]);
    return row.value;
  }
}
