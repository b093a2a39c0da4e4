import { Inject, Injectable } from '@nestjs/common';
import type { UserDataPurgeHook } from '@app/platform';
import { UserFactsCache } from './user-facts.cache';

/**
 * The chat's part in the platform's data rights beyond its tables: what the replicas keep about a
 * user (UserFactsCache) is forgotten when the user's rows change under it, an account deleted or a
 * guest's MCP servers moved to the account it signed in to.
 */
@Injectable()
export class ChatUserData implements UserDataPurgeHook {
  constructor(@Inject(UserFactsCache) private readonly facts: Pick<UserFactsCache, 'changed'>) {}

  async purgeUserData(userId: string): Promise<void> {
    this.facts.changed(userId);
  }

  async afterMerge(fromUserId: string, intoUserId: string): Promise<void> {
    this.facts.changed(fromUserId);
    this.facts.changed(intoUserId);
  }
}
