import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountDeletionsRepository } from '../account/account-deletions.repository';
import { CampaignsRepository } from '../campaigns/campaigns.repository';
import { InvitesRepository } from '../invites/invites.repository';
import { PhoneCodesRepository } from '../login/phone-codes.repository';
import { SessionsRepository } from '../sessions/sessions.repository';
import { SigningKeysRepository } from '../tokens/signing-keys.repository';
import { UsersRepository } from '../users/users.repository';

/** The repositories of the auth schema, bound to one unit of work. */
export class AuthRepositories {
  readonly users: UsersRepository;
  readonly sessions: SessionsRepository;
  readonly codes: PhoneCodesRepository;
  readonly invites: InvitesRepository;
  readonly campaigns: CampaignsRepository;
  readonly deletions: AccountDeletionsRepository;

  constructor(manager: EntityManager) {
    this.users = new UsersRepository(manager);
    this.sessions = new SessionsRepository(manager);
    this.codes = new PhoneCodesRepository(manager);
    this.invites = new InvitesRepository(manager);
    this.campaigns = new CampaignsRepository(manager);
    this.deletions = new AccountDeletionsRepository(manager);
  }
}

/** Where the auth service's logic gets its repositories: outside or inside a transaction. */
@Injectable()
export class AuthStore {
  readonly repos: AuthRepositories;
  readonly keys: SigningKeysRepository;

  constructor(private readonly dataSource: DataSource) {
    this.repos = new AuthRepositories(dataSource.manager);
    this.keys = new SigningKeysRepository(dataSource);
  }

  transaction<T>(work: (repos: AuthRepositories) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new AuthRepositories(manager)));
  }
}
