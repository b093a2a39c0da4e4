import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { DomainError, KEY_VALUE_STORE, secondsToWindowEnd, SERVICE_CONFIG, type KeyValueStore } from '@app/platform';
import type { ChatConfig } from '../config';

/** Counters live a little longer than their UTC day. */
const COUNTER_TTL_SECONDS = 26 * 3600;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Messages a user may send per UTC day (a guest fewer than an account): past it, 429 before the
 * model is asked anything. Counted per user, across every replica (the shared key-value store).
 */
@Injectable()
export class DailyLimit {
  constructor(
    @Inject(KEY_VALUE_STORE) private readonly kv: Pick<KeyValueStore, 'increment'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_GUEST_DAILY_LIMIT' | 'CHAT_USER_DAILY_LIMIT'>,
  ) {}

  /** Counts one message of the caller's, refusing it past the day's limit. */
  async take(caller: Caller, now = new Date()): Promise<void> {
    const limit = caller.is_anon ? this.config.CHAT_GUEST_DAILY_LIMIT : this.config.CHAT_USER_DAILY_LIMIT;
    const day = now.toISOString().slice(0, 10);
    const count = await this.kv.increment(`chat:daily:${caller.user_id}:${day}`, COUNTER_TTL_SECONDS);
    if (count > limit) {
      throw new DomainError(
        'rate_limited',
        caller.is_anon
          ? `You have reached today's limit of ${limit} messages for guests. Sign in to keep chatting.`
          : `You have reached today's limit of ${limit} messages. It resets at midnight UTC.`,
        429,
        { retryAfterSeconds: secondsToWindowEnd(DAY_MS, now.getTime()) },
      );
    }
  }
}
