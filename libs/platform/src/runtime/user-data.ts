import { Controller, Inject, Optional, type Type } from '@nestjs/common';
import { userExportContract, type Caller, type PayloadOf } from '@app/contracts';
import { USER_EVENTS } from '@app/contracts/events';
import { DataSource } from 'typeorm';
import { dropUserEvents } from '../database/outbox';
import { Outbox } from '../database/outbox-service';
import { applyOnce, forgetUser, lockUser } from '../database/processed-events';
import { EventHandler, RpcHandler, type EventInput, type RpcInput } from '../transport/decorators';
import type { ServiceDefinition, UserDataTable } from './service-definition';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * What a service keeps about a user outside its tables (objects in a store...). A service that has
 * such data provides this token from its module (and exports it); the purge calls it before the
 * user's rows go, on every delivery, so it must be idempotent. (A second handler of the deleted
 * event in the same service cannot do this: the bus serves one handler per subject and service.)
 */
export interface UserDataPurgeHook {
  /** `deleted` is the event's payload (it may carry the account's phone number). */
  purgeUserData(userId: string, deleted: PayloadOf<typeof USER_EVENTS.deleted>): Promise<void>;
  /**
   * Called before an export, with the caller (the user themself): lets a service attach to the user
   * rows it keeps by another key (texts kept by phone number), so the export by user column finds them.
   */
  beforeExport?(userId: string, caller: Caller): Promise<void>;
  /**
   * Called after a guest's rows were moved to the account it signed in to (on every delivery of the
   * merge): lets a service forget what it keeps about either user outside its tables (a cache).
   */
  afterMerge?(fromUserId: string, intoUserId: string): Promise<void>;
}
export const USER_DATA_PURGE_HOOK = Symbol('USER_DATA_PURGE_HOOK');

function checked(tables: UserDataTable[]): UserDataTable[] {
  for (const { table, userColumn } of tables) {
    if (!IDENTIFIER.test(table) || !IDENTIFIER.test(userColumn)) throw new Error(`Invalid user-data table ${table}.${userColumn}`);
  }
  return tables;
}

/**
 * The data rights every service owes its users, from the tables it declares as holding user
 * data: export them, purge them when the account is deleted (then say so with `events.user.purged`),
 * and move a guest's rows to the account the guest signed in to. Each is idempotent.
 */
export function userDataController(definition: ServiceDefinition): Type<unknown> {
  const tables = checked(definition.userData?.tables ?? []);
  const purgeOnDelete = definition.userData?.purgeOnDelete ?? true;
  const service = definition.name;

  @Controller()
  class UserDataHandlers {
    constructor(
      @Inject(DataSource) private readonly dataSource: DataSource,
      @Inject(Outbox) private readonly outbox: Outbox,
      @Optional() @Inject(USER_DATA_PURGE_HOOK) private readonly purgeHook?: UserDataPurgeHook,
    ) {}

    @RpcHandler(userExportContract(service))
    async export({ data, caller }: RpcInput<ReturnType<typeof userExportContract>>) {
      await this.purgeHook?.beforeExport?.(data.user_id, caller);
      const out: Record<string, Record<string, unknown>[]> = {};
      for (const { table, userColumn, omitFromExport = [] } of tables) {
        const rows: Record<string, unknown>[] = await this.dataSource.query(`SELECT * FROM "${table}" WHERE "${userColumn}" = $1`, [
          data.user_id,
        ]);
        for (const row of rows) for (const column of omitFromExport) delete row[column];
        out[table] = rows;
      }
      return { tables: { ...out, ...definition.userData?.exportNotes } };
    }

    @EventHandler(USER_EVENTS.deleted)
    async purge({ event_id, payload }: EventInput<typeof USER_EVENTS.deleted>) {
      if (!purgeOnDelete) return;
      await this.purgeHook?.purgeUserData(payload.user_id, payload);
      const purged = { user_id: payload.user_id, deletion_id: payload.deletion_id, service };
      // One event per deletion and service, said again on every request for it (in case the
      // confirmation was lost on the way to auth): in the purge's own transaction the first time.
      const confirm = { eventId: `purged:${payload.deletion_id}:${service}`, onDuplicate: 'resend' as const };
      const applied = await applyOnce(this.dataSource, 'user-data', event_id, async (manager) => {
        await lockUser(manager, payload.user_id);
        await forgetUser(manager, payload.user_id);
        for (const { table, userColumn } of [...tables].reverse().filter((t) => t.onDelete !== 'hook')) {
          await manager.query(`DELETE FROM "${table}" WHERE "${userColumn}" = $1`, [payload.user_id]);
        }
        // The outbox too: the user's events, pending or sent, go with the rows they came from.
        await dropUserEvents(manager, payload.user_id);
        await this.outbox.enqueue(manager, USER_EVENTS.purged, purged, confirm);
      });
      if (!applied)
        await this.dataSource.transaction(async (manager) => {
          await dropUserEvents(manager, payload.user_id);
          await this.outbox.enqueue(manager, USER_EVENTS.purged, purged, confirm);
        });
    }

    @EventHandler(USER_EVENTS.merged)
    async merge({ event_id, payload }: EventInput<typeof USER_EVENTS.merged>) {
      await applyOnce(this.dataSource, 'user-data', event_id, async (manager) => {
        const users = [payload.into_user_id, payload.from_user_id];
        for (const { table, userColumn, onMerge, mergeKey, beforeMerge = [] } of tables) {
          if ((onMerge ?? 'move') === 'move') {
            for (const statement of beforeMerge) await manager.query(statement, users);
            if (mergeKey?.length) {
              // What the account has already (by the table's unique key) stays the account's; the guest's copy goes.
              const key = mergeKey.join(', ');
              await manager.query(
                `DELETE FROM "${table}" WHERE "${userColumn}" = $2 AND (${key}) IN (SELECT ${key} FROM "${table}" WHERE "${userColumn}" = $1)`,
                users,
              );
            }
            await manager.query(`UPDATE "${table}" SET "${userColumn}" = $1 WHERE "${userColumn}" = $2`, users);
          } else {
            // The guest no longer exists: what could not move must not linger.
            await manager.query(`DELETE FROM "${table}" WHERE "${userColumn}" = $1`, [payload.from_user_id]);
          }
        }
      });
      await this.purgeHook?.afterMerge?.(payload.from_user_id, payload.into_user_id);
    }
  }
  return UserDataHandlers;
}
