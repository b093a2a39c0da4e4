import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { MemoryConfig } from '../config';
import { MemoriesService } from './memories.service';

/**
 * Erases removed memories once they can no longer be restored, so that what a user deleted does
 * not stay in the database. Every replica may run it: the delete is the same whoever runs it.
 */
@Injectable()
export class RemovedMemorySweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly memories: MemoriesService,
    private readonly logger: AppLogger,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MemoryConfig, 'MEMORY_RESTORE_WINDOW_SECONDS'>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.min(60, this.config.MEMORY_RESTORE_WINDOW_SECONDS) * 1000;
    this.timer = setInterval(() => void this.sweep(), everyMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    try {
      const erased = await this.memories.eraseExpired();
      if (erased) this.logger.log(`Erased ${erased} removed memories`, 'RemovedMemorySweeper');
    } catch (error) {
      this.logger.warn({ msg: 'Could not erase removed memories', error: String(error) }, 'RemovedMemorySweeper');
    }
  }
}
