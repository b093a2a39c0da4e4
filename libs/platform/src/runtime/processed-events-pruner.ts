import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RuntimeEnv } from '../config/config';
import { processedEventHorizonMs, pruneProcessedEvents } from '../database/processed-events';
import { AppLogger } from '../logging/logger';
import { EVENT_DUPLICATE_WINDOW_MS } from '../transport/nats-bus';
import { runPeriodically, type Periodic } from './periodic';
import { RUNTIME_ENV } from './tokens';

const PRUNE_EVERY_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Keeps every service's processed-event table (the ids that make a redelivered event change
 * nothing twice) from growing forever: once an hour, forgets the ids of events applied longer ago
 * than the event stream's redelivery horizon (`processedEventHorizonMs`: the stream's max_age,
 * EVENT_RETENTION_DAYS, plus its duplicate window). Every replica may run it: the delete is the same
 * whoever runs it.
 */
@Injectable()
export class ProcessedEventsPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private periodic?: Periodic;

  constructor(
    private readonly dataSource: DataSource,
    private readonly logger: AppLogger,
    @Inject(RUNTIME_ENV) private readonly env: Pick<RuntimeEnv, 'EVENT_RETENTION_DAYS'>,
  ) {}

  /** How long an applied event's id is kept. */
  get horizonMs(): number {
    return processedEventHorizonMs(this.env.EVENT_RETENTION_DAYS * DAY_MS, EVENT_DUPLICATE_WINDOW_MS);
  }

  onApplicationBootstrap(): void {
    this.periodic = runPeriodically(() => this.prune(), PRUNE_EVERY_MS, this.logger, 'ProcessedEventsPruner', { immediately: true });
  }

  onApplicationShutdown(): void {
    this.periodic?.stop();
  }

  /** Forgets the ids past the horizon; returns how many. */
  async prune(now = new Date()): Promise<number> {
    const pruned = await pruneProcessedEvents(this.dataSource, new Date(now.getTime() - this.horizonMs));
    if (pruned) this.logger.log(`Forgot ${pruned} processed event ids past the event stream's redelivery horizon`, 'ProcessedEventsPruner');
    return pruned;
  }
}
