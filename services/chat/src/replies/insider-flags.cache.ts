import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { INSIDER_CONFIG_RPC, INSIDER_FLAGS_CHANGED } from '@app/contracts/insider-config';
import { BUS, decodeOrUndefined, RpcClient, type Bus, type BusSubscription } from '@app/platform';

/** How long a user's flags are trusted without news from the insider-config service. */
export const FLAGS_CACHE_TTL_MS = 30_000;
/** How many users' flags are kept at most (the least recently stored go first). */
export const FLAGS_CACHE_MAX_USERS = 10_000;
/** How long asking for the flags may hold a reply back: past it, the reply goes on without. */
export const FLAGS_TIMEOUT_MS = 3_000;

export const FLAGS_CLOCK = Symbol('FLAGS_CLOCK');

/**
 * Whether a user sees how their question was rewritten (the `show_rewritten_user_message` flag in
 * force), kept for a moment so that a reply's start does not ask the insider-config service each
 * time. The service says on the bus when a user's flags change (INSIDER_FLAGS_CHANGED, heard by
 * every replica): that user's entry goes at once, so a switch flipped in the settings applies to
 * the very next message. Announcements can be missed (the bus was down, an operator command ran
 * without it): entries therefore also expire after FLAGS_CACHE_TTL_MS, and a lost bus connection
 * forgets everything.
 */
@Injectable()
export class InsiderFlagsCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly entries = new Map<string, { shows: boolean; until: number }>();
  private readonly asking = new Map<string, Promise<boolean>>();
  /** Counts forgets: an answer asked for before one is not stored (it may predate the change). */
  private generation = 0;
  private subscription?: BusSubscription;
  private stopWatching?: () => void;

  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(BUS) private readonly bus: Pick<Bus, 'subscribe' | 'onConnectionLost'>,
    @Optional() @Inject(FLAGS_CLOCK) private readonly now: () => number = Date.now,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe(INSIDER_FLAGS_CHANGED.subject, (message) => {
      // Anything that is not an announcement (not JSON, no user id) is ignored, never thrown into the bus.
      const announced = INSIDER_FLAGS_CHANGED.payload.safeParse(decodeOrUndefined(message.data));
      if (announced.success) this.forget(announced.data.user_id);
    });
    this.stopWatching = this.bus.onConnectionLost(() => this.forgetAll());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopWatching?.();
    await this.subscription?.close();
  }

  /** False for guests without an id, and whenever the service does not answer (never worth failing a reply for). */
  showsRewrittenQuery(caller: Caller): Promise<boolean> {
    const userId = caller.user_id;
    if (!userId) return Promise.resolve(false);
    const entry = this.entries.get(userId);
    if (entry && entry.until > this.now()) return Promise.resolve(entry.shows);
    // Replies of one user starting together ask once.
    return this.asking.get(userId) ?? this.ask(caller, userId);
  }

  private ask(caller: Caller, userId: string): Promise<boolean> {
    const generation = this.generation;
    const answer = this.rpc
      .call(INSIDER_CONFIG_RPC.effectiveFlags, { user_id: userId }, caller, { timeoutMs: FLAGS_TIMEOUT_MS })
      .then(
        (flags) => {
          const shows = flags.effective.show_rewritten_user_message === true;
          if (generation === this.generation) this.store(userId, shows);
          return shows;
        },
        () => false,
      )
      .finally(() => {
        if (this.asking.get(userId) === answer) this.asking.delete(userId);
      });
    this.asking.set(userId, answer);
    return answer;
  }

  private store(userId: string, shows: boolean): void {
    this.entries.delete(userId);
    this.entries.set(userId, { shows, until: this.now() + FLAGS_CACHE_TTL_MS });
    if (this.entries.size > FLAGS_CACHE_MAX_USERS) this.entries.delete(this.entries.keys().next().value as string);
  }

  private forget(userId: string): void {
    this.generation++;
    this.entries.delete(userId);
    this.asking.delete(userId);
  }

  private forgetAll(): void {
    this.generation++;
    this.entries.clear();
    this.asking.clear();
  }
}
