import { Injectable } from '@nestjs/common';
import { transactionalEvents, type PublicOf, type TransactionalEvents } from '@app/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountDeletionsRepository } from '../account/account-deletions.repository';
import { CampaignsRepository } from '../campaigns/campaigns.repository';
import { InvitesRepository } from '../invites/invites.repository';
import { PhoneCodesRepository } from '../login/phone-codes.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { KeyEnvelope } from '../tokens/key-envelope';
import { SigningKeysRepository } from '../tokens/signing-keys.repository';
import { UsersRepository } from '../users/users.repository';

/** The repositories of the auth schema, bound to one unit of work. */
export interface AuthRepositories {
  readonly users: PublicOf<UsersRepository>;
  readonly sessions: PublicOf<SessionsRepository>;
  readonly codes: PublicOf<PhoneCodesRepository>;
  readonly invites: PublicOf<InvitesRepository>;
  readonly campaigns: PublicOf<CampaignsRepository>;
  readonly deletions: PublicOf<AccountDeletionsRepository>;
  /** Events the unit of work owes, written in its transaction (the outbox): sent if and only if it commits. */
  readonly events: TransactionalEvents;
}

/** Where the auth service's logic gets its repositories: outside or inside a transaction. */
export interface AuthData {
  readonly repos: AuthRepositories;
  readonly keys: PublicOf<SigningKeysRepository>;
  transaction<T>(work: (repos: AuthRepositories) => Promise<T>): Promise<T>;
}

class TypeOrmAuthRepositories implements AuthRepositories {
  readonly users: UsersRepository;
  readonly sessions: SessionsRepository;
  readonly codes: PhoneCodesRepository;
  readonly invites: InvitesRepository;
  readonly campaigns: CampaignsRepository;
  readonly deletions: AccountDeletionsRepository;
  readonly events: TransactionalEvents;

  constructor(manager: EntityManager) {
    this.users = new UsersRepository(manager);
    this.sessions = new SessionsRepository(manager);
    this.codes = new PhoneCodesRepository(manager);
    this.invites = new InvitesRepository(manager);
    this.campaigns = new CampaignsRepository(manager);
    this.deletions = new AccountDeletionsRepository(manager);
    this.events = transactionalEvents(manager);
  }
}

/**
 * The auth schema through TypeORM. Transactions hold a pooled connection: nothing slow (hashing,
 * another connection's work, a call to another service, the cache) runs inside one.
 */
@Injectable()
export class AuthUnitOfWork implements AuthData {
  readonly repos: AuthRepositories;
  readonly keys: SigningKeysRepository;

  constructor(
    private readonly dataSource: DataSource,
    envelope: KeyEnvelope,
  ) {
    this.repos = new TypeOrmAuthRepositories(dataSource.manager);
    this.keys = new SigningKeysRepository(dataSource, envelope);
  }

  transaction<T>(work: (repos: AuthRepositories) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new TypeOrmAuthRepositories(manager)));
  }
}
