import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, RUNTIME_ENV, SERVICE_CONFIG, WriteQueue, type RuntimeEnv } from '@app/platform';
import type { ChatConfig } from '../config';

/** The first wait before a failed write is tried again; it doubles (jittered) up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5_000;
/** A renewal is tried a few times (the next comes a third of a lease later anyway). */
const LEASE_ATTEMPTS = 3;

/** What a write is, in the order a free slot goes to them. */
const PRIORITY = { lease: 0, final: 1, checkpoint: 2 } as const;

/**
 * Every write of a reply being written goes through one queue (WriteQueue): at most
 * CHAT_REPLY_WRITE_CONCURRENCY at once (half the pool by default), so that thousands of replies
 * ending together (their clients hung up, a gateway restarted, the model's connection dropped) wait
 * their turn here rather than in the pool's queue, where each failed after DB_POOL_CONNECT_TIMEOUT_MS
 * ("The reply could not be saved"), and the requests keep the other half of the pool. A free slot
 * goes to the lease renewals first (one statement for up to a thousand replies: a late one would let
 * ReplyRecovery cut replies still being written), then the final saves, then the checkpoints (each
 * superseded by the reply's next one, or by its final save). A final save is tried again while it fails
 * with a transient error (the pool exhausted, PostgreSQL restarting: 57P01, a serialization failure
 * or deadlock), up to CHAT_REPLY_SAVE_ATTEMPTS times.
 */
@Injectable()
export class ReplyWrites {
  private readonly queue: WriteQueue;

  constructor(
    @Inject(SERVICE_CONFIG) config: Pick<ChatConfig, 'CHAT_REPLY_WRITE_CONCURRENCY' | 'CHAT_REPLY_SAVE_ATTEMPTS'>,
    @Inject(RUNTIME_ENV) env: Pick<RuntimeEnv, 'DB_POOL_MAX'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
  ) {
    this.queue = new WriteQueue({
      concurrency: replyWriteConcurrency(config.CHAT_REPLY_WRITE_CONCURRENCY, env.DB_POOL_MAX),
      attempts: config.CHAT_REPLY_SAVE_ATTEMPTS,
      firstDelayMs: FIRST_DELAY_MS,
      maxDelayMs: MAX_DELAY_MS,
      onRetry: (error, attempt, delayMs) =>
        this.logger.warn(
          { msg: 'A reply write failed; it is tried again', attempt, delay_ms: Math.round(delayMs), error: String(error) },
          'ReplyWrites',
        ),
    });
  }

  /** Writes waiting for their turn now (and for another attempt). */
  get pending(): number {
    return this.queue.pending;
  }

  /** A renewal of the leases of the replies this process writes. */
  lease<T>(write: () => Promise<T>): Promise<T> {
    return this.queue.run(write, { priority: PRIORITY.lease, attempts: LEASE_ATTEMPTS });
  }

  /** A reply's last write (complete or cut short): tried again while it fails with a transient error. */
  final<T>(write: () => Promise<T>): Promise<T> {
    return this.queue.run(write, { priority: PRIORITY.final });
  }

  /** What a reply has so far: tried once, dropped if `superseded` aborts before its turn. */
  checkpoint<T>(write: () => Promise<T>, superseded: AbortSignal): Promise<T> {
    return this.queue.run(write, { priority: PRIORITY.checkpoint, attempts: 1, signal: superseded });
  }
}

/** The writes at once: as configured, else half the pool (at least one), never more than the pool. */
export function replyWriteConcurrency(configured: number | undefined, poolMax: number): number {
  return Math.min(poolMax, configured ?? Math.max(1, Math.floor(poolMax / 2)));
}
