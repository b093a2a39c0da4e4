export interface ReplyCheckpointsOptions {
  /** Saves the reply as it is now and renews its lease. */
  save: () => Promise<void>;
  /** Changes whenever there is something new to save (cheap: lengths, not the text). */
  version: () => string;
  /** How often to save when something changed. */
  intervalMs: number;
  /** How often to save anyway, to renew the lease while the model is silent (never, when the lease is renewed elsewhere). */
  renewEveryMs?: number;
  onError: (error: unknown) => void;
  /** Called once saving has stopped. */
  onStop?: () => void;
}

/**
 * Saves a reply being written every `intervalMs` when it changed, and at least every
 * `renewEveryMs` if given (which renews its lease): one save at a time, never overlapping.
 */
export class ReplyCheckpoints {
  private timer?: NodeJS.Timeout;
  private saving?: Promise<void>;
  private savedVersion: string;
  private savedAt = Date.now();

  constructor(private readonly options: ReplyCheckpointsOptions) {
    this.savedVersion = options.version();
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops saving; resolves once a save under way is over. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    try {
      await this.saving;
    } finally {
      this.options.onStop?.();
    }
  }

  tick(): void {
    if (this.saving) return;
    const version = this.options.version();
    if (version === this.savedVersion && Date.now() - this.savedAt < (this.options.renewEveryMs ?? Infinity)) return;
    this.saving = this.options
      .save()
      .then(
        () => {
          this.savedVersion = version;
          this.savedAt = Date.now();
        },
        (error: unknown) => this.options.onError(error),
      )
      .finally(() => {
        this.saving = undefined;
      });
  }
}
