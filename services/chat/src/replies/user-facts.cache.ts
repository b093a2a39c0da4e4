import { Inject, Injectable, Optional, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CHAT_USER_FACTS_CHANGED } from '@app/contracts/chat';
import { AppLogger, BUS, encode, followInvalidations, InvalidatingCache, type Bus } from '@app/platform';
import type { ReminderSettingRecord } from '../reminders/reminders.repository';

/** What a reply's start looks up about a user that almost never changes. */
export interface UserFacts {
  /** Their reminder settings (time zone, quiet hours): null when they set none. */
  reminderSettings: ReminderSettingRecord | null;
  /** Whether they have MCP servers (their records, with OAuth state refreshed in calls, are never kept). */
  hasMcpServers: boolean;
}

/**
 * How long a fact is trusted at most: a backstop for an announcement missed while the bus
 * reconnected (a lost connection forgets everything anyway); every change is announced at once.
 */
export const USER_FACTS_TTL_MS = 10 * 60_000;
/** How many users' facts (of each kind) are kept at most (the least recently stored go first). */
export const USER_FACTS_MAX_USERS = 10_000;

export const USER_FACTS_CLOCK = Symbol('USER_FACTS_CLOCK');

/**
 * A user's facts kept in this chat process, so that a reply's start does not read them each time
 * (one InvalidatingCache per fact). Whatever changes one (`changed`: a time zone set, an MCP server
 * added or removed, an account merged into or deleted) says so on the bus (CHAT_USER_FACTS_CHANGED,
 * heard by every replica, this one included), after its write: every replica forgets that user's
 * facts at once, so none offers a removed server or forgets a time zone just set. A lookup under way
 * when a change is heard is not kept (it may have read the row before the change). A lost bus
 * connection forgets everything (announcements may have been missed), and facts expire after
 * USER_FACTS_TTL_MS.
 */
@Injectable()
export class UserFactsCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly facts: { readonly [K in keyof UserFacts]: InvalidatingCache<UserFacts[K]> };
  private following?: { close(): Promise<void> };

  constructor(
    @Inject(BUS) private readonly bus: Pick<Bus, 'publish' | 'subscribe' | 'onConnectionLost' | 'connected'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Optional() @Inject(USER_FACTS_CLOCK) now: () => number = Date.now,
  ) {
    const options = { ttlMs: USER_FACTS_TTL_MS, maxEntries: USER_FACTS_MAX_USERS, now };
    this.facts = { reminderSettings: new InvalidatingCache(options), hasMcpServers: new InvalidatingCache(options) };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.following = await followInvalidations(this.bus, CHAT_USER_FACTS_CHANGED, (announced) => announced.user_id, [
      this.facts.reminderSettings,
      this.facts.hasMcpServers,
    ]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.following?.close();
  }

  /** The fact if this process knows it (undefined when it does not: look it up with `lookup`). */
  get<K extends keyof UserFacts>(userId: string, fact: K): UserFacts[K] | undefined {
    return (this.facts[fact] as InvalidatingCache<UserFacts[K]>).get(userId);
  }

  /**
   * Reads with `load` (or joins the same lookup under way), and keeps the fact `factOf` finds in
   * what it read, unless a change was heard meanwhile. What was read is shared: read-only.
   */
  lookup<K extends keyof UserFacts, R>(userId: string, fact: K, load: () => Promise<R>, factOf: (read: R) => UserFacts[K]): Promise<R> {
    return (this.facts[fact] as InvalidatingCache<UserFacts[K]>).load(userId, load, factOf);
  }

  /** The user's facts changed (their write is over): every replica forgets them. */
  changed(userId: string): void {
    this.facts.reminderSettings.invalidate(userId);
    this.facts.hasMcpServers.invalidate(userId);
    try {
      this.bus.publish(CHAT_USER_FACTS_CHANGED.subject, encode(CHAT_USER_FACTS_CHANGED.payload.parse({ user_id: userId })));
    } catch (error) {
      // The bus is down: every replica forgets everything once it notices (onConnectionLost).
      this.logger.warn({ msg: 'Could not announce a change of user facts', error: String(error) }, 'UserFactsCache');
    }
  }
}
