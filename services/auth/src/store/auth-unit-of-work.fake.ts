import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger, EventPublisher, KEY_VALUE_STORE, MemoryStore, RpcClient, SERVICE_CONFIG, Throttler } from '@app/platform';
import { SMS_RPC } from '@app/contracts/sms';
import { AccountDeletionEntity } from '../account/account-deletion.entity';
import { AccountService } from '../account/account.service';
import type { CampaignEntity } from '../campaigns/campaign.entity';
import { CampaignsService } from '../campaigns/campaigns.service';
import { authEnvSchema, type AuthConfig } from '../config';
import { InviteEntity } from '../invites/invite.entity';
import { InvitesService } from '../invites/invites.service';
import { LoginService } from '../login/login.service';
import { PhoneLoginService } from '../login/phone-login.service';
import { RecordSignIn } from '../login/usecases/record-sign-in/record-sign-in.usecase';
import { ResolveAccount } from '../login/usecases/resolve-account/resolve-account.usecase';
import type { NewPhoneCode } from '../login/phone-codes.repository';
import { PhoneCodeEntity } from '../login/phone-code.entity';
import { SessionEntity } from '../sessions/session.entity';
import type { SessionState } from '../sessions/sessions.repository';
import { SessionsService } from '../sessions/sessions.service';
import { TokenService } from '../tokens/token.service';
import { IdentityEntity, type IdentityProvider } from '../users/identity.entity';
import { newUser, UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AuthUnitOfWork, type AuthData, type AuthRepositories } from './auth-unit-of-work';

/**
 * The auth schema in memory, for unit tests (not part of the build): the same repositories' public
 * faces, transactions that roll back when their work throws, and a record of anything that would
 * take a second pooled connection while a transaction holds one (the pool deadlock of issue 11, 5b).
 */
interface Tables {
  users: Map<string, UserEntity>;
  identities: Map<string, IdentityEntity>;
  sessions: Map<string, SessionEntity>;
  codes: Map<string, PhoneCodeEntity>;
  invites: Map<string, InviteEntity>;
  redemptions: Set<string>;
  campaigns: Map<string, CampaignEntity>;
  deletions: Map<string, AccountDeletionEntity>;
  secrets: Map<string, string>;
}

const emptyTables = (): Tables => ({
  users: new Map(),
  identities: new Map(),
  sessions: new Map(),
  codes: new Map(),
  invites: new Map(),
  redemptions: new Set(),
  campaigns: new Map(),
  deletions: new Map(),
  secrets: new Map(),
});

/** Rows are copied in and out, as a database would: a caller's object is never the stored one. */
const copy = <T extends object>(row: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(row) as object) as T, structuredClone({ ...row }));
const copyTables = (t: Tables): Tables => ({
  users: new Map([...t.users].map(([k, v]) => [k, copy(v)])),
  identities: new Map([...t.identities].map(([k, v]) => [k, copy(v)])),
  sessions: new Map([...t.sessions].map(([k, v]) => [k, copy(v)])),
  codes: new Map([...t.codes].map(([k, v]) => [k, copy(v)])),
  invites: new Map([...t.invites].map(([k, v]) => [k, copy(v)])),
  redemptions: new Set(t.redemptions),
  campaigns: new Map(t.campaigns),
  deletions: new Map([...t.deletions].map(([k, v]) => [k, copy(v)])),
  secrets: new Map(t.secrets),
});

export class FakeAuthData implements AuthData {
  tables = emptyTables();
  /** Transactions begun, and calls that needed another connection while one was open. */
  transactions = 0;
  connectionsTakenInsideTransactions: string[] = [];
  secretReads = 0;
  /** Events enqueued in a unit of work (kept only when it commits). */
  events: { subject: string; payload: unknown }[] = [];
  private open = 0;
  private clock = 0;

  readonly repos: AuthRepositories = this.reposFor();

  /**
   * Signing keys belong to the token service, faked whole in these units: only the phone code's
   * secret is kept here (the other members answer as a fresh schema would).
   */
  readonly keys = {
    secret: async (name: string, create: () => string): Promise<string> => {
      this.outside(`keys.secret(${name})`);
      this.secretReads += 1;
      if (!this.tables.secrets.has(name)) this.tables.secrets.set(name, create());
      return this.tables.secrets.get(name)!;
    },
    all: async () => [],
    activeOrCreate: async () => {
      throw new Error('signing keys are not part of this fake');
    },
  } as unknown as AuthData['keys'];

  async transaction<T>(work: (repos: AuthRepositories) => Promise<T>): Promise<T> {
    this.transactions += 1;
    const before = copyTables(this.tables);
    const events = this.events.length;
    this.open += 1;
    try {
      return await work(this.repos);
    } catch (error) {
      this.tables = before;
      this.events.length = events;
      throw error;
    } finally {
      this.open -= 1;
    }
  }

  /** A later time than any before it (rows ordered by creation). */
  tick(): Date {
    this.clock += 1;
    return new Date(Date.UTC(2026, 0, 1) + this.clock);
  }

  // ---- builders for a test's starting point -------------------------------------------------------

  addUser(fields: Partial<UserEntity> & Pick<UserEntity, 'id' | 'isAnon'>): UserEntity {
    const user = newUser({ createdAt: this.tick(), updatedAt: new Date(), ...fields });
    this.tables.users.set(user.id, user);
    return copy(user);
  }

  addSession(fields: Partial<SessionEntity> & Pick<SessionEntity, 'id' | 'userId'>): SessionEntity {
    const session = Object.assign(new SessionEntity(), {
      createdAt: this.tick(),
      expiresAt: new Date(Date.now() + 3600_000),
      revokedAt: null,
      ip: null,
      userAgent: null,
      ...fields,
    });
    this.tables.sessions.set(session.id, session);
    return copy(session);
  }

  addIdentity(userId: string, provider: IdentityProvider, subject: string): void {
    this.tables.identities.set(
      `${provider}:${subject}`,
      Object.assign(new IdentityEntity(), { userId, provider, subject, email: null, createdAt: this.tick() }),
    );
  }

  code(phoneNumber: string): PhoneCodeEntity | undefined {
    return [...this.tables.codes.values()]
      .filter((c) => c.phoneNumber === phoneNumber)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  }

  private outside(what: string): void {
    if (this.open > 0) this.connectionsTakenInsideTransactions.push(what);
  }

  private reposFor(): AuthRepositories {
    const t = () => this.tables;
    const found = <T extends object>(row: T | undefined): T | null => (row ? copy(row) : null);
    return {
      users: {
        find: async (id) => found(t().users.get(id)),
        findForUpdate: async (id) => found(t().users.get(id)),
        findByPhone: async (phoneNumber) => found([...t().users.values()].find((u) => u.phoneNumber === phoneNumber)),
        save: async (user) => {
          if (user.phoneNumber && [...t().users.values()].some((u) => u.phoneNumber === user.phoneNumber && u.id !== user.id))
            throw new Error('duplicate phone_number');
          const stored = copy(Object.assign(user, { createdAt: user.createdAt ?? this.tick(), updatedAt: new Date() }));
          t().users.set(user.id, stored);
          return copy(stored);
        },
        create: newUser,
        delete: async (id) => {
          t().users.delete(id);
          // ON DELETE CASCADE
          for (const [key, identity] of t().identities) if (identity.userId === id) t().identities.delete(key);
          for (const [key, session] of t().sessions) if (session.userId === id) t().sessions.delete(key);
        },
        findIdentity: async (provider, subject) => found(t().identities.get(`${provider}:${subject}`)),
        addIdentity: async (userId, provider, subject, email) => {
          const key = `${provider}:${subject}`;
          if (t().identities.has(key)) throw new Error('duplicate identity');
          t().identities.set(key, Object.assign(new IdentityEntity(), { userId, provider, subject, email, createdAt: this.tick() }));
        },
      },
      sessions: {
        insert: async (session) => {
          t().sessions.set(session.id, Object.assign(new SessionEntity(), { ...session, createdAt: this.tick(), revokedAt: null }));
        },
        find: async (id) => found(t().sessions.get(id)),
        state: async (id): Promise<SessionState | null> => {
          const session = t().sessions.get(id);
          if (!session) return null;
          const deleting = [...t().deletions.values()].some((d) => d.userId === session.userId && d.completedAt === null);
          return { userId: session.userId, revokedAt: session.revokedAt, expiresAt: session.expiresAt, deleting };
        },
        active: async (userId) =>
          [...t().sessions.values()]
            .filter((s) => s.userId === userId && s.revokedAt === null && s.expiresAt.getTime() > Date.now())
            .map((s) => copy(s)),
        revoke: async (ids) => {
          for (const id of ids) {
            const session = t().sessions.get(id);
            if (session && session.revokedAt === null) session.revokedAt = new Date();
          }
        },
      },
      codes: {
        insert: async (code: NewPhoneCode) => {
          t().codes.set(code.id, Object.assign(new PhoneCodeEntity(), { ...code, attempts: 0, consumedAt: null, createdAt: this.tick() }));
        },
        retireOpen: async (phoneNumber) => {
          for (const code of t().codes.values())
            if (code.phoneNumber === phoneNumber && code.consumedAt === null) code.consumedAt = new Date();
        },
        latestForUpdate: async (phoneNumber) => found(this.code(phoneNumber)),
        consume: async (id) => {
          const code = t().codes.get(id);
          if (!code || code.consumedAt !== null) return false;
          code.consumedAt = new Date();
          return true;
        },
        recordWrongTry: async (id, attempts, burnt) => {
          const code = t().codes.get(id)!;
          code.attempts = attempts;
          if (burnt) code.consumedAt = new Date();
        },
      },
      invites: {
        find: async (id) => found(t().invites.get(id)),
        findForUpdate: async (id) => found(t().invites.get(id)),
        insert: async (invite) => {
          const stored = Object.assign(new InviteEntity(), { ...invite, uses: 0, createdAt: this.tick() });
          t().invites.set(invite.id, stored);
          return copy(stored);
        },
        hasRedeemed: async (inviteId, userId) => t().redemptions.has(`${inviteId}:${userId}`),
        redeem: async (invite, userId) => {
          t().redemptions.add(`${invite.id}:${userId}`);
          t().invites.get(invite.id)!.uses += 1;
        },
      },
      campaigns: {
        findActive: async (name) => t().campaigns.get(name) ?? null,
      },
      deletions: {
        insert: async (id, userId, pendingServices) => {
          t().deletions.set(
            id,
            Object.assign(new AccountDeletionEntity(), {
              id,
              userId,
              pendingServices,
              requestedAt: this.tick(),
              lastPublishedAt: new Date(),
              completedAt: null,
            }),
          );
        },
        find: async (id) => found(t().deletions.get(id)),
        findForUpdate: async (id) => found(t().deletions.get(id)),
        openForUser: async (userId) => found([...t().deletions.values()].find((d) => d.userId === userId && d.completedAt === null)),
        save: async (deletion) => {
          t().deletions.set(deletion.id, copy(deletion));
          return copy(deletion);
        },
        stale: async (before) =>
          [...t().deletions.values()].filter((d) => d.completedAt === null && d.lastPublishedAt < before).map((d) => copy(d)),
        purgeUser: async (userId, phoneNumber) => {
          for (const [id, code] of t().codes) if (code.phoneNumber === phoneNumber || code.guestUserId === userId) t().codes.delete(id);
          await this.repos.users.delete(userId);
        },
      },
      // The outbox: events written in the unit of work, kept only if it commits.
      events: {
        enqueue: async (contract: { subject: string }, payload: unknown) => {
          this.events.push({ subject: contract.subject, payload });
          return `event-${this.events.length}`;
        },
      },
    } as AuthRepositories;
  }
}

/** A silent logger (the unit suites print nothing). */
export function silentLogger(): AppLogger {
  return new AppLogger({ service: 'auth', level: 'error', format: 'json', sink: () => undefined });
}

/** What the fake RPC client was asked (texts to send), answering each as the SMS service would. */
export class FakeRpc {
  readonly calls: { subject: string; data: unknown }[] = [];
  /** Answers by subject, for calls other than texts (which answer `{queued: true}`). */
  readonly answers = new Map<string, (data: unknown) => unknown>();
  async call(contract: { subject: string }, data: unknown): Promise<unknown> {
    this.calls.push({ subject: contract.subject, data });
    const answer = this.answers.get(contract.subject);
    if (answer) return answer(data);
    // The sms service: no number has opted out unless a test says so.
    if (contract.subject === SMS_RPC.optOut.subject) return { opted_out: false, service_number: '+15550100000' };
    return { queued: true };
  }
  /** The last code texted to a number. */
  codeTo(phoneNumber: string): string | undefined {
    const text = this.calls.filter((c) => (c.data as { to?: string }).to === phoneNumber).at(-1);
    return (text?.data as { body: string } | undefined)?.body.match(/\b(\d{6})\b/)?.[1];
  }
}

export interface AuthUnit {
  data: FakeAuthData;
  kv: MemoryStore;
  rpc: FakeRpc;
  get<T>(type: Type<T>): T;
  close(): Promise<void>;
}

/**
 * The auth service's classes wired by Nest as in the service, over the fakes: the in-memory schema,
 * the in-memory cache, a recording RPC client and event publisher, and tokens that name their session.
 */
export async function authUnit(config: Partial<AuthConfig> = {}): Promise<AuthUnit> {
  const data = new FakeAuthData();
  const kv = new MemoryStore();
  const rpc = new FakeRpc();
  const tokens: Pick<TokenService, 'issue'> = { issue: async (claims) => `token:${claims.userId}:${claims.sessionId}:${claims.isAnon}` };
  const events = {
    publish: async (contract: { subject: string }, payload: unknown) => void data.events.push({ subject: contract.subject, payload }),
  };
  @Module({
    providers: [
      { provide: AuthUnitOfWork, useValue: data },
      { provide: KEY_VALUE_STORE, useValue: kv },
      { provide: SERVICE_CONFIG, useValue: { ...authEnvSchema.parse({}), ...config } },
      { provide: AppLogger, useValue: silentLogger() },
      { provide: RpcClient, useValue: rpc },
      { provide: EventPublisher, useValue: events },
      { provide: TokenService, useValue: tokens },
      SessionsService,
      InvitesService,
      CampaignsService,
      ResolveAccount,
      RecordSignIn,
      LoginService,
      PhoneLoginService,
      Throttler,
      UsersService,
      AccountService,
    ],
  })
  class AuthUnitModule {}
  const app = await NestFactory.createApplicationContext(AuthUnitModule, { logger: false });
  return {
    data,
    kv,
    rpc,
    get: (type) => app.get(type),
    close: async () => {
      await app.close();
      await kv.close();
    },
  };
}

/** Fixes the calendar (`Date`) at `now` for a test and leaves every timer real, so the auth unit's async work runs as usual. */
export function fixTheDate(now: Date | number): void {
  jest.useFakeTimers({
    now,
    doNotFake: [
      'nextTick',
      'setImmediate',
      'clearImmediate',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
      'queueMicrotask',
      'hrtime',
      'performance',
    ],
  });
}
