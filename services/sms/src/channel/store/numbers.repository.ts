import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * What the channel knows of a texting number and its account (`sms_number`, `sms_thread`,
 * `sms_usage`): the opt-out, the conversation of each thread, the month's usage. Writes that must
 * be atomic with the texts they cause are in the channel's transaction (ChannelUnitOfWork).
 */
@Injectable()
export class NumbersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async number(phone: string): Promise<{ userId: string | null; optedOut: boolean } | null> {
    const [row]: { user_id: string | null; opted_out: boolean }[] = await this.dataSource.query(
      'SELECT user_id, opted_out FROM sms_number WHERE phone_number = $1',
      [phone],
    );
    return row ? { userId: row.user_id, optedOut: row.opted_out } : null;
  }

  /** Records whose number this is (the account auth says), keeping its opt-out. */
  async link(phone: string, userId: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO sms_number (phone_number, user_id) VALUES ($1, $2)
       ON CONFLICT (phone_number) DO UPDATE SET user_id = EXCLUDED.user_id, updated_at = now() WHERE sms_number.user_id IS DISTINCT FROM EXCLUDED.user_id`,
      [phone, userId],
    );
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

  /** Texts counted against the account's allowance this month. */
  async usage(userId: string, period: string): Promise<number> {
    const [row]: { texts_used: number }[] = await this.dataSource.query(
      'SELECT texts_used FROM sms_usage WHERE user_id = $1 AND period = $2',
      [userId, period],
    );
    return row?.texts_used ?? 0;
  }
}
