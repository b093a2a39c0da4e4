import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { INSIDER_CONFIG_RPC, INSIDER_FLAGS_CHANGED } from '@app/contracts/insider-config';
import { BUS, followInvalidations, InvalidatingCache, RpcClient, type Bus } from '@app/platform';

/** How long a user's flags are trusted without news from the insider-config service. */
export const FLAGS_CACHE_TTL_MS = 30_000;
/** How many users' flags are kept at most (the least recently stored go first). */
export const FLAGS_CACHE_MAX_USERS = 10_000;
/** How long asking for the flags may hold a reply back: past it, the reply goes on without. */
export const FLAGS_TIMEOUT_MS = 3_000;

export const FLAGS_CLOCK = Symbol('FLAGS_CLOCK');

/** The answers from memory, made once (nothing is allocated for a reply whose user's flags are known). */
const SHOWS = Promise.resolve(true);
const SHOWS_NOT = Promise.resolve(false);
const identity = (shows: boolean) => shows;

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
  private readonly shows: InvalidatingCache<boolean>;
  private following?: { close(): Promise<void> };

  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'>,
    @Inject(BUS) private readonly bus: Pick<Bus, 'subscribe' | 'onConnectionLost' | 'connected'>,
    @Optional() @Inject(FLAGS_CLOCK) now: () => number = Date.now,
  ) {
    this.shows = new InvalidatingCache({ ttlMs: FLAGS_CACHE_TTL_MS, maxEntries: FLAGS_CACHE_MAX_USERS, now });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.following = await followInvalidations(this.bus, INSIDER_FLAGS_CHANGED, (announced) => announced.user_id, [this.shows]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.following?.close();
  }

  /** False for guests without an id, and whenever the service does not answer (never worth failing a reply for). */
  showsRewrittenQuery(caller: Caller): Promise<boolean> {
    const userId = caller.user_id;
    if (!userId) return SHOWS_NOT;
    const known = this.shows.get(userId);
    if (known !== undefined) return known ? SHOWS : SHOWS_NOT;
    // Replies of one user starting together ask once; a failed answer is not kept.
    return this.shows.load(userId, () => this.ask(caller, userId), identity).catch(() => false);
  }

  private async ask(caller: Caller, userId: string): Promise<boolean> {
    const flags = await this.rpc.call(INSIDER_CONFIG_RPC.effectiveFlags, { user_id: userId }, caller, { timeoutMs: FLAGS_TIMEOUT_MS });
    return flags.effective.show_rewritten_user_message === true;
  }
}
