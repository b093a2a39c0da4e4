import { Injectable } from '@nestjs/common';
import { SMS_EVENTS } from '@app/contracts/sms';
import { Outbox } from '@app/platform';
import { DataSource } from 'typeorm';

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

/** What the global ceiling says of one more send: it may go, it waits for the next minute, or the day's ceiling holds it. */
export type CeilingVerdict = 'send' | 'wait' | 'hold';

/** The outbound queue's rows (`outbound_message`), their delivery reports, and the operator's global ceiling. */
@Injectable()
export class OutboundRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Takes a queued text to send: while it is pending (Twilio's own `queued` means sent to Twilio) or retrying, or when a send was left half-way by a
   * crash longer ago than any send can take. Null: already sent, failed for good, or being sent.
   */
  async claim(id: string, staleAfterMs: number): Promise<OutboundRow | null> {
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
  async status(id: string): Promise<string | null> {
    const rows: { status: string }[] = await this.dataSource.query('SELECT status FROM outbound_message WHERE id = $1', [id]);
    return rows[0]?.status ?? null;
  }

  /**
   * A send's outcome. A delivery report can beat the provider's own answer (Twilio calls back as
   * soon as the carrier answers): one already received for this provider id wins over `queued`.
   */
  async record(id: string, outcome: { status: string; providerMessageId?: string | null; error?: string | null }): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbound_message SET
         status = COALESCE((SELECT c.status FROM sms_status_callback c WHERE $3::text IS NOT NULL AND c.message_sid = $3 ORDER BY c.id DESC LIMIT 1), $2),
         provider_message_id = COALESCE($3, provider_message_id), error = $4, status_updated_at = now()
       WHERE id = $1`,
      [id, outcome.status, outcome.providerMessageId ?? null, outcome.error ?? null],
    );
    if (outcome.providerMessageId) {
      // Reports that came first belong to the message (and its account: exported and purged with it).
      await this.dataSource.query(
        `UPDATE sms_status_callback SET outbound_id = $1, user_id = (SELECT user_id FROM outbound_message WHERE id = $1)
         WHERE message_sid = $2 AND outbound_id IS NULL`,
        [id, outcome.providerMessageId],
      );
    }
  }

  /** Puts a text back in the queue's events (Twilio asked to retry, or the minute's ceiling): the consumer retries it with back-off. */
  async requeue(messageId: string, attempt: number): Promise<void> {
    await this.dataSource.transaction((manager) =>
      this.outbox.enqueue(manager, SMS_EVENTS.outbound, { message_id: messageId }, { eventId: `sms-outbound:${messageId}:${attempt}` }),
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

  /**
   * Counts one send against the operator's ceilings (every replica shares the counts: one row per
   * UTC minute and per UTC day). A send over either is not counted: over the minute's it waits,
   * over the day's it is held. Windows older than two days are dropped as a new minute starts.
   */
  async reserveSend(perMinute: number, perDay: number): Promise<CeilingVerdict> {
    const rows: { bucket: string; sent: number }[] = await this.dataSource.query(
      `INSERT INTO sms_send_window (bucket, sent, starts_at) VALUES
         ('minute:' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI'), 1, date_trunc('minute', now())),
         ('day:' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 1, date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
       ON CONFLICT (bucket) DO UPDATE SET sent = sms_send_window.sent + 1
       RETURNING bucket, sent`,
    );
    const minute = rows.find((r) => r.bucket.startsWith('minute:'))!;
    const day = rows.find((r) => r.bucket.startsWith('day:'))!;
    const verdict: CeilingVerdict = day.sent > perDay ? 'hold' : minute.sent > perMinute ? 'wait' : 'send';
    if (verdict !== 'send') {
      await this.dataSource.query('UPDATE sms_send_window SET sent = sent - 1 WHERE bucket = ANY($1)', [[minute.bucket, day.bucket]]);
    } else if (minute.sent === 1) {
      await this.dataSource.query("DELETE FROM sms_send_window WHERE starts_at < now() - interval '2 days'");
    }
    return verdict;
  }
}
