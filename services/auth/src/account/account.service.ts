import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_NAMES, type Caller } from '@app/contracts';
import { USER_EVENTS } from '@app/contracts/events';
import { AppLogger, DomainError, runPeriodically, SERVICE_CONFIG, type Periodic } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config';
import { SessionsService } from '../sessions/sessions.service';
import { AuthUnitOfWork, type AuthData, type AuthRepositories } from '../store/auth-unit-of-work';

/** The services that must confirm a purge before the account itself goes (auth goes last). */
const OTHER_SERVICES = SERVICE_NAMES.filter((s) => s !== 'auth');
const REPUBLISH_AFTER_MS = 30_000;

/**
 * Deleting an account: sessions end at once, every service is told (`events.user.deleted`) and
 * confirms (`events.user.purged`); when all have, the account itself is removed. A request that
 * is not confirmed in time stays recorded and is published again until it is: deletion never
 * half-happens silently.
 */
@Injectable()
export class AccountService implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: Periodic;

  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    private readonly sessions: SessionsService,
    private readonly logger: AppLogger,
    @Inject(SERVICE_CONFIG) private readonly config: AuthConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.sweeper = runPeriodically(() => this.republishStale(), REPUBLISH_AFTER_MS, this.logger, 'AccountDeletion');
  }

  onApplicationShutdown(): void {
    this.sweeper?.stop();
  }

  async delete(caller: Caller) {
    if (!caller.user_id) throw DomainError.unauthorized();
    const userId = caller.user_id;
    // The deletion is recorded and every session ended in one transaction: from its commit on, no
    // token of the user is accepted (the gateway asks the database when its cache does not know).
    const { deletionId, ended } = await this.store.transaction(async (repos) => {
      const user = await repos.users.findForUpdate(userId);
      if (!user) throw DomainError.unauthorized();
      const ended = await this.sessions.endAllOf(repos, userId);
      const open = await repos.deletions.openForUser(userId);
      const deletionId = open?.id ?? randomUUID();
      if (!open) await repos.deletions.insert(deletionId, userId, [...OTHER_SERVICES]);
      // Asked again while one is open: every service is told again.
      await this.publish(repos, userId, deletionId);
      return { deletionId, ended };
    });
    await this.sessions.announceEnded(ended);
    const deadline = Date.now() + this.config.ACCOUNT_DELETION_WAIT_MS;
    for (;;) {
      const deletion = await this.store.repos.deletions.find(deletionId);
      if (deletion?.completedAt) return { deletion_id: deletionId, status: 'deleted' as const, pending_services: [] };
      if (Date.now() >= deadline)
        return { deletion_id: deletionId, status: 'pending' as const, pending_services: deletion?.pendingServices ?? [] };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** One service has purged: strike it off; the last one completes the deletion. */
  async confirmPurge(deletionId: string, service: string): Promise<void> {
    await this.store.transaction(async (repos) => {
      const deletion = await repos.deletions.findForUpdate(deletionId);
      if (!deletion || deletion.completedAt || !deletion.pendingServices.includes(service)) return;
      deletion.pendingServices = deletion.pendingServices.filter((s) => s !== service);
      if (deletion.pendingServices.length === 0 && deletion.userId) {
        const user = await repos.users.find(deletion.userId);
        await repos.deletions.purgeUser(deletion.userId, user?.phoneNumber ?? null);
        deletion.userId = null;
        deletion.completedAt = new Date();
        this.logger.log({ msg: 'Account deleted', deletion_id: deletion.id }, 'AccountDeletion');
      }
      await repos.deletions.save(deletion);
    });
  }

  /** Written in the transaction that records (or repeats) the request: it is sent if and only if that commits. */
  private async publish(repos: AuthRepositories, userId: string, deletionId: string): Promise<void> {
    // A new event id each time: consumers that already purged do it again harmlessly and confirm again.
    await repos.events.enqueue(USER_EVENTS.deleted, {
      user_id: userId,
      deletion_id: deletionId,
      phone_number: (await repos.users.find(userId))?.phoneNumber ?? null,
    });
  }

  private async republishStale(): Promise<void> {
    for (const deletion of await this.store.repos.deletions.stale(new Date(Date.now() - REPUBLISH_AFTER_MS))) {
      if (!deletion.userId) continue;
      this.logger.warn(
        { msg: 'Deletion still waiting, asking again', deletion_id: deletion.id, pending: deletion.pendingServices },
        'AccountDeletion',
      );
      const userId = deletion.userId;
      deletion.lastPublishedAt = new Date();
      await this.store.transaction(async (repos) => {
        await repos.deletions.save(deletion);
        await this.publish(repos, userId, deletion.id);
      });
    }
  }
}
