export interface ReplyCheckpointsOptions {
  /** Saves the reply as it is now and renews its lease; a save not started yet is dropped once `stopped` aborts. */
  save: (stopped: AbortSignal) => Promise<void>;
  /** Changes whenever there is something new to save (cheap: lengths, not the text). */
  version: () => string;
  /** How often to save when something changed. */
  intervalMs: number;
  onError: (error: unknown) => void;
  /** Called once saving has stopped. */
  onStop?: () => void;
}

/**
 * Saves a reply being written every `intervalMs` when it changed: one save at a time, never
 * overlapping. A reply that did not change is not saved again (its lease is renewed by ReplyLeases).
 */
export class ReplyCheckpoints {
  private timer?: NodeJS.Timeout;
  private saving?: Promise<void>;
  private savedVersion: string;
  private readonly stopped = new AbortController();

  constructor(private readonly options: ReplyCheckpointsOptions) {
    this.savedVersion = options.version();
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops saving (a save still waiting for its turn is dropped); resolves once a save under way is over. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopped.abort();
    try {
      await this.saving;
    } finally {
      this.options.onStop?.();
    }
  }

  tick(): void {
    if (this.saving) return;
    const version = this.options.version();
    if (version === this.savedVersion) return;
    this.saving = this.options
      .save(this.stopped.signal)
      .then(
        () => {
          this.savedVersion = version;
        },
        (error: unknown) => {
          // Dropped before its turn (the reply stopped): not a failure.
          if (!this.stopped.signal.aborted || error !== this.stopped.signal.reason) this.options.onError(error);
        },
      )
      .finally(() => {
        this.saving = undefined;
      });
  }
}
