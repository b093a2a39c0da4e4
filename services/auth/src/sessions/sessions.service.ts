import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { revokedSessionKey } from '@app/contracts/auth';
import { KEY_VALUE_STORE, SERVICE_CONFIG, type KeyValueStore } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config';
import { AuthStore, type AuthRepositories } from '../store/auth-store';
import type { SessionEntity } from './session.entity';

export interface ClientInfo {
  ip: string;
  user_agent: string | null;
}

/** Sessions: opened at sign-in, ended at logout or deletion, at once for every gateway. */
@Injectable()
export class SessionsService {
  constructor(
    private readonly store: AuthStore,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(SERVICE_CONFIG) private readonly config: AuthConfig,
  ) {}

  async open(repos: AuthRepositories, userId: string, client: ClientInfo): Promise<Pick<SessionEntity, 'id' | 'expiresAt'>> {
    const session = {
      id: randomUUID(),
      userId,
      expiresAt: new Date(Date.now() + this.config.AUTH_TOKEN_TTL_SECONDS * 1000),
      ip: client.ip.slice(0, 64),
      userAgent: client.user_agent?.slice(0, 512) ?? null,
    };
    await repos.sessions.insert(session);
    return session;
  }

  /** Ends sessions in the database and marks them in the shared cache the gateway reads. */
  async revoke(repos: AuthRepositories, sessions: Pick<SessionEntity, 'id' | 'expiresAt'>[]): Promise<void> {
    await repos.sessions.revoke(sessions.map((s) => s.id));
    await Promise.all(
      sessions.map((s) => {
        const ttl = Math.max(1, Math.ceil((s.expiresAt.getTime() - Date.now()) / 1000));
        return this.kv.set(revokedSessionKey(s.id), '1', ttl);
      }),
    );
  }

  /** Logout: the caller's own session ends. */
  async logout(caller: Caller): Promise<{ logged_out: true }> {
    const { session_id: sessionId, user_id: userId } = caller;
    if (sessionId && userId) {
      await this.store.transaction(async (repos) => {
        const session = await repos.sessions.find(sessionId);
        if (session?.userId === userId) await this.revoke(repos, [session]);
      });
    }
    return { logged_out: true };
  }

  async revokeAllOf(repos: AuthRepositories, userId: string): Promise<void> {
    await this.revoke(repos, await repos.sessions.active(userId));
  }
}
