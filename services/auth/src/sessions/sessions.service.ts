import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { SESSION_STATE, sessionStateKey } from '@app/contracts/auth';
import { AppLogger, KEY_VALUE_STORE, SERVICE_CONFIG, type KeyValueStore } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config';
import { AuthUnitOfWork, type AuthData, type AuthRepositories } from '../store/auth-unit-of-work';
import type { SessionEntity } from './session.entity';

export interface ClientInfo {
  ip: string;
  user_agent: string | null;
}

/** A session that a committed transaction ended: what the cache mark needs. */
export type EndedSession = Pick<SessionEntity, 'id' | 'expiresAt'>;

/**
 * Sessions: opened at sign-in, ended at logout or deletion. The database is the source of truth
 * (`revoked_at`); the shared cache only speeds the gateway up: an ended session is marked there at
 * once, and the gateway asks `status` whenever its cache does not know a session.
 */
@Injectable()
export class SessionsService {
  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<AuthConfig, 'AUTH_TOKEN_TTL_SECONDS'>,
    private readonly logger: AppLogger,
  ) {}

  async open(repos: AuthRepositories, userId: string, client: ClientInfo): Promise<EndedSession> {
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

  /** Ends sessions in the database, inside the caller's transaction; hand the result to `announceEnded` once committed. */
  async end(repos: AuthRepositories, sessions: EndedSession[]): Promise<EndedSession[]> {
    await repos.sessions.revoke(sessions.map((s) => s.id));
    return sessions;
  }

  /** Ends every live session of a user (logout everywhere, deletion, a guest merged or turned into an account). */
  async endAllOf(repos: AuthRepositories, userId: string): Promise<EndedSession[]> {
    return this.end(repos, await repos.sessions.active(userId));
  }

  /**
   * After the commit: marks the ended sessions in the shared cache, overwriting a cached "active".
   * Should the cache fail, the database still says ended, and the gateway's short-lived "active"
   * entries run out within its cache time.
   */
  async announceEnded(sessions: EndedSession[]): Promise<void> {
    const now = Date.now();
    const results = await Promise.allSettled(
      sessions.map((s) =>
        this.kv.set(sessionStateKey(s.id), SESSION_STATE.ended, Math.max(1, Math.ceil((s.expiresAt.getTime() - now) / 1000))),
      ),
    );
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed) this.logger.warn({ msg: 'Ended sessions not marked in the cache (the database has them)', failed }, 'Sessions');
  }

  /** Logout: the caller's own session ends, or with `all` every session of the caller's account. */
  async logout(caller: Caller, all = false): Promise<{ logged_out: true }> {
    const { session_id: sessionId, user_id: userId } = caller;
    if (sessionId && userId) {
      const ended = await this.store.transaction(async (repos) => {
        if (all) return this.endAllOf(repos, userId);
        const session = await repos.sessions.find(sessionId);
        return session?.userId === userId ? this.end(repos, [session]) : [];
      });
      await this.announceEnded(ended);
    }
    return { logged_out: true };
  }

  /** The gateway's question when its cache does not know a session. */
  async status(sessionId: string, userId: string, now = new Date()): Promise<{ active: boolean }> {
    const state = await this.store.repos.sessions.state(sessionId);
    const active =
      state !== null && state.userId === userId && state.revokedAt === null && state.expiresAt.getTime() > now.getTime() && !state.deleting;
    return { active };
  }
}
