import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';

/**
 * Deletes the temporary chats whose time is up (CHAT_TEMPORARY_CHAT_TTL_SECONDS after they began),
 * at start and every CHAT_TEMPORARY_SWEEP_MS; safe on several replicas (a row is deleted once).
 */
@Injectable()
export class TemporaryChatsSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'deleteExpiredConversations'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_TEMPORARY_SWEEP_MS'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.config.CHAT_TEMPORARY_SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async sweep(): Promise<number> {
    try {
      return await this.repo.deleteExpiredConversations();
    } catch (error) {
      this.logger.warn({ msg: 'Could not delete the temporary chats whose time is up', error: String(error) }, 'TemporaryChatsSweeper');
      return 0;
    }
  }
}
