import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { SERVICE_CONFIG, Throttler, type ThrottleLimit } from '@app/platform';
import type { ChatConfig } from '../config';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Messages a user may send per UTC day (a guest fewer than an account): past it, 429 before the
 * model is asked anything. Counted per user by the platform's throttler (across every replica).
 */
@Injectable()
export class DailyLimit {
  constructor(
    @Inject(Throttler) private readonly throttler: Pick<Throttler, 'take' | 'giveBack'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_GUEST_DAILY_LIMIT' | 'CHAT_USER_DAILY_LIMIT'>,
  ) {}

  /** Counts one message of the caller's, refusing it past the day's limit. */
  async take(caller: Caller, now = new Date()): Promise<void> {
    await this.throttler.take(this.limitOf(caller), String(caller.user_id), now.getTime());
  }

  /** Uncounts a message taken (`take`) and then not stored (its conversation was not found). */
  async giveBack(caller: Caller, now = new Date()): Promise<void> {
    await this.throttler.giveBack(this.limitOf(caller), String(caller.user_id), now.getTime());
  }

  private limitOf(caller: Caller): ThrottleLimit {
    const limit = caller.is_anon ? this.config.CHAT_GUEST_DAILY_LIMIT : this.config.CHAT_USER_DAILY_LIMIT;
    const detail = caller.is_anon
      ? `You have reached today's limit of ${limit} messages for guests. Sign in to keep chatting.`
      : `You have reached today's limit of ${limit} messages. It resets at midnight UTC.`;
    return { name: 'chat:daily', limit, windowMs: DAY_MS, detail };
  }
}
