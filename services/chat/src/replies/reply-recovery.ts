import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';

/**
 * Replies left `streaming` by a chat process that died (a crash, a kill, a node lost): once their
 * lease runs out they become incomplete replies holding what was saved, which the client shows
 * with "The reply was cut short" and can regenerate. Runs at start and every half lease; several
 * replicas may run it at once.
 */
@Injectable()
export class ReplyRecovery implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'recoverAbandonedReplies'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_REPLY_LEASE_MS'>,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), Math.max(500, this.config.CHAT_REPLY_LEASE_MS / 2));
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many replies were recovered. */
  async sweep(): Promise<number> {
    if (this.running) return 0;
    let recovered = 0;
    this.running = (async () => {
      try {
        recovered = await this.repo.recoverAbandonedReplies();
        if (recovered)
          this.logger.warn({ msg: 'Replies cut short by a stopped process were stored as incomplete', count: recovered }, 'ReplyRecovery');
      } catch (error) {
        this.logger.warn({ msg: 'Could not recover abandoned replies', error: String(error) }, 'ReplyRecovery');
      } finally {
        this.running = undefined;
      }
    })();
    await this.running;
    return recovered;
  }
}
