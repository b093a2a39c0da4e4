import type { OutboxRow, OutboxStore } from './outbox';

/**
 * Hands one event to the bus. Resolves once the bus has stored it (the JetStream ack); the returned
 * `settled` resolves once the event can no longer be lost with this process: at once on JetStream
 * (the stream is durable), when every consumer has it on the in-process log (it lives in memory).
 */
export type OutboxSender = (row: OutboxRow) => Promise<{ settled: Promise<void> }>;

export interface OutboxRelayOptions {
  /** Rows claimed per round. */
  batchSize: number;
  /** The safety net: a round this often even when nothing woke the relay. */
  pollIntervalMs: number;
  /** How long a claimed row is left to this relay before another replica may take it. */
  leaseMs: number;
  /** Back-off after a failed round (the broker is down): doubles from min to max. */
  retryMinMs: number;
  retryMaxMs: number;
  /** Back-off of a single row that fails while others go through, doubled per attempt. */
  poisonRetryMaxMs: number;
  /** Sent rows are kept this long (for inspection), then deleted. */
  retentionMs: number;
  cleanupIntervalMs: number;
  /** Events handed to the bus and not yet settled, at most. */
  maxInFlight: number;
}

export const DEFAULT_OUTBOX_RELAY_OPTIONS: OutboxRelayOptions = {
  batchSize: 100,
  pollIntervalMs: 1_000,
  leaseMs: 60_000,
  retryMinMs: 250,
  retryMaxMs: 5_000,
  poisonRetryMaxMs: 60_000,
  retentionMs: 60 * 60_000,
  cleanupIntervalMs: 60_000,
  maxInFlight: 1_000,
};

export interface OutboxRoundResult {
  claimed: number;
  published: number;
  failed: number;
  /** How long the relay waits before its next round because the bus refused everything (0: no pause). */
  pauseMs: number;
}

interface RelayLog {
  warn(message: unknown, context?: string): void;
  error(message: unknown, context?: string): void;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Publishes a service's outbox to the bus: oldest first, each row marked sent once the bus has it.
 * When the bus refuses a whole round (a broker restart), every row of it is retried together after a
 * back-off that doubles up to `retryMaxMs`, so the order is kept; a row that fails while the others go
 * through is backed off alone (it cannot hold the rest up). Woken at once after a commit that wrote
 * to the outbox, and every `pollIntervalMs` anyway. Several replicas share one outbox: rows are
 * claimed with `FOR UPDATE SKIP LOCKED` and a lease. A crash after publishing and before marking
 * means one more publish with the same `Nats-Msg-Id`: JetStream drops it, consumers apply each id once.
 */
export class OutboxRelay {
  private readonly options: OutboxRelayOptions;
  /** Rows handed to the bus and not settled yet, by row id. */
  private readonly inFlight = new Map<string, OutboxRow>();
  private readonly toMark: string[] = [];
  private failedRounds = 0;
  private lastCleanup = 0;
  private running?: Promise<void>;
  private stopped = true;
  private woken = false;
  private wakeSleep?: () => void;
  private marking?: Promise<void>;
  private flushScheduled = false;

  constructor(
    private readonly store: OutboxStore,
    private readonly send: OutboxSender,
    private readonly log: RelayLog,
    options: Partial<OutboxRelayOptions> = {},
  ) {
    this.options = { ...DEFAULT_OUTBOX_RELAY_OPTIONS, ...options };
  }

  /** Events handed to the bus that are not settled yet. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.running = this.loop();
  }

  /** Something was committed to the outbox: run a round now (a back-off still applies). */
  wake(): void {
    this.woken = true;
    this.wakeSleep?.();
  }

  /**
   * Stops after the current round. Rows still waiting for their settlement are released (due again
   * at once, for whichever process runs next); rows already settled are marked sent.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.wakeSleep?.();
    await this.running;
    await this.flushMarks();
    if (this.toMark.length) await this.flushMarks();
    const abandoned = [...this.inFlight.keys()];
    this.inFlight.clear();
    await this.store
      .release(abandoned)
      .catch((error: unknown) => this.log.warn({ msg: 'Could not release outbox rows', error: describe(error) }, 'Outbox'));
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      let result: OutboxRoundResult;
      try {
        result = await this.runOnce();
        await this.cleanupIfDue();
      } catch (error) {
        // The database itself is unreachable: the rows are safe there, try again later.
        this.failedRounds++;
        this.log.warn({ msg: 'Outbox relay round failed', error: describe(error) }, 'Outbox');
        result = { claimed: 0, published: 0, failed: 0, pauseMs: this.backoff() };
      }
      if (this.stopped) return;
      const full = result.claimed >= this.options.batchSize || (result.claimed > 0 && this.inFlight.size >= this.options.maxInFlight);
      if (result.pauseMs > 0) await this.sleep(result.pauseMs, false);
      else if (!full && !this.woken) await this.sleep(this.options.pollIntervalMs, true);
    }
  }

  /** One round: claim the due rows, hand them to the bus in order, record what happened. */
  async runOnce(): Promise<OutboxRoundResult> {
    const room = this.options.maxInFlight - this.inFlight.size;
    if (room <= 0) return { claimed: 0, published: 0, failed: 0, pauseMs: 0 };
    // A row whose lease ran out while it waits for its settlement is claimed again: it stays in flight.
    const claimed = (await this.store.claim(Math.min(this.options.batchSize, room), this.options.leaseMs)).filter(
      (row) => !this.inFlight.has(row.id),
    );
    if (claimed.length === 0) return { claimed: 0, published: 0, failed: 0, pauseMs: 0 };
    // Every send starts before any is awaited, in id order: the bus keeps the order of its calls.
    const outcomes = await Promise.allSettled(claimed.map((row) => this.send(row)));
    const failed: { row: OutboxRow; error: string }[] = [];
    outcomes.forEach((outcome, i) => {
      const row = claimed[i];
      if (outcome.status === 'rejected') {
        failed.push({ row, error: describe(outcome.reason) });
        return;
      }
      this.inFlight.set(row.id, row);
      outcome.value.settled.then(
        () => {
          if (!this.inFlight.delete(row.id)) return;
          this.toMark.push(row.id);
          this.scheduleFlush();
        },
        (error: unknown) => {
          // Not settled (the bus closed): leave it to the lease, or to `stop`, which releases it.
          this.log.warn({ msg: 'Outbox event not settled', event_id: row.eventId, error: describe(error) }, 'Outbox');
        },
      );
    });
    let pauseMs = 0;
    if (failed.length === claimed.length) {
      // The bus refused everything: it is down. All of them again together, in order, after a back-off.
      this.failedRounds++;
      pauseMs = this.backoff();
      await this.store.markFailed(
        failed.map((f) => f.row.id),
        pauseMs,
        failed[0].error,
      );
      if (this.failedRounds === 1 || this.failedRounds % 20 === 0) {
        this.log.warn(
          { msg: 'The bus refuses events; they wait in the outbox', pending: claimed.length, error: failed[0].error },
          'Outbox',
        );
      }
    } else {
      this.failedRounds = 0;
      for (const { row, error } of failed) {
        const retryInMs = Math.min(this.options.poisonRetryMaxMs, this.options.retryMinMs * 2 ** Math.min(20, row.attempts - 1));
        this.log.error(
          {
            msg: 'An event was refused by the bus; retrying it alone',
            event_id: row.eventId,
            subject: row.subject,
            attempts: row.attempts,
            error,
          },
          'Outbox',
        );
        await this.store.markFailed([row.id], retryInMs, error);
      }
    }
    // Settlements that are already there (JetStream: all of them) are marked within this round.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await this.flushMarks();
    return { claimed: claimed.length, published: claimed.length - failed.length, failed: failed.length, pauseMs };
  }

  /** The relay's pause after `failedRounds` refused rounds in a row. */
  private backoff(): number {
    return Math.min(this.options.retryMaxMs, this.options.retryMinMs * 2 ** Math.min(20, Math.max(0, this.failedRounds - 1)));
  }

  /** Settlements arriving together are marked together. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flushMarks();
    });
  }

  /** Marks settled rows sent, in one statement per batch; one flush at a time. */
  private flushMarks(): Promise<void> {
    this.marking ??= this.markSettled().finally(() => {
      this.marking = undefined;
      if (this.toMark.length && !this.stopped) void this.flushMarks();
    });
    return this.marking;
  }

  private async markSettled(): Promise<void> {
    while (this.toMark.length) {
      const ids = this.toMark.splice(0, this.toMark.length);
      try {
        await this.store.markSent(ids);
      } catch (error) {
        // Kept for the next flush; if this process ends first, the lease runs out and the rows are
        // published again (and dropped as duplicates).
        this.toMark.unshift(...ids);
        this.log.warn({ msg: 'Could not mark outbox rows sent', error: describe(error) }, 'Outbox');
        return;
      }
    }
  }

  private async cleanupIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < this.options.cleanupIntervalMs) return;
    this.lastCleanup = now;
    await this.store.deleteSentBefore(new Date(now - this.options.retentionMs));
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      // A wake cuts a poll short, never a back-off; a stop cuts both.
      this.wakeSleep = wakeable ? done : () => this.stopped && done();
    });
  }
}
