import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

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

/** Incoming texts (`inbound_message`): stored once per MessageSid, claimed to be answered, finished with an outcome. */
@Injectable()
export class InboundRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores an incoming text once per MessageSid: false when Twilio is retrying one already stored. */
  async insert(row: Omit<InboundRow, 'userId' | 'status' | 'createdAt'>): Promise<boolean> {
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO inbound_message (id, message_sid, from_number, to_number, body, media, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'received') ON CONFLICT (message_sid) DO NOTHING RETURNING id`,
      [row.id, row.messageSid, row.from, row.to, row.body, JSON.stringify(row.media)],
    );
    return inserted.length > 0;
  }

  /** Takes an incoming text to answer, for `leaseMs` (another replica takes it over only after a crash). */
  async claim(id: string, leaseMs: number): Promise<InboundRow | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE inbound_message SET status = 'processing', lease_until = now() + make_interval(secs => $2)
       WHERE id = $1 AND (status = 'received' OR (status = 'processing' AND lease_until < now())) RETURNING *`,
      [id, leaseMs / 1000],
    );
    return rows[0] ? inboundOf(rows[0]) : null;
  }

  /** Incoming texts left unanswered (a crash, a restart): received long enough ago, or whose lease ran out. */
  async stranded(olderThanMs: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM inbound_message WHERE (status = 'received' AND created_at < now() - make_interval(secs => $1))
         OR (status = 'processing' AND lease_until < now()) ORDER BY created_at LIMIT $2`,
      [olderThanMs / 1000, limit],
    );
    return rows.map((r) => r.id);
  }

  /** The outcome of an answered text (its status, the account and group it turned out to be for, or why it failed). */
  async finish(id: string, status: string, extra: { userId?: string | null; groupId?: string | null; error?: string | null } = {}) {
    await this.dataSource.query(
      `UPDATE inbound_message SET status = $2, lease_until = NULL, user_id = COALESCE($3, user_id), group_id = COALESCE($4, group_id),
       error = $5 WHERE id = $1`,
      [id, status, extra.userId ?? null, extra.groupId ?? null, extra.error ?? null],
    );
  }
}
