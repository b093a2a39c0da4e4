import type { Type } from '@nestjs/common';
import type { ServiceName } from '@app/contracts';
import type { MigrationInterface } from 'typeorm';
import type { z } from 'zod';

/** Everything the runtime needs to host a service, in the embedded host or in its own process. */
export interface ServiceDefinition {
  /** One of the product's services, or an extra one hosted beside them (benchmarks, tests). */
  name: ServiceName | (string & {});
  /** The service's root Nest module (its handlers, services and repositories). */
  module: Type<unknown>;
  /** The service's own environment variables, parsed at boot and injected as SERVICE_CONFIG. */
  config?: z.ZodObject;
  entities: Function[];
  /** Applied in order by `migrate`; the platform's own come first. */
  migrations: (new () => MigrationInterface)[];
  /** Where the service keeps users' data: exported, purged on deletion, moved on a guest merge. */
  userData?: {
    /** In dependency order (parents first); purged in reverse. */
    tables: UserDataTable[];
    /** False when the service purges on its own schedule (auth deletes the account last). */
    purgeOnDelete?: boolean;
    /** What the export says beside the tables (each entry one more file section): what is not kept, and why. */
    exportNotes?: Record<string, Record<string, unknown>[]>;
  };
}

export interface UserDataTable {
  table: string;
  userColumn: string;
  /**
   * When a guest signs in to an account that already exists: move the guest's rows to it (default),
   * or keep the account's own and drop the guest's (settings a user has one of).
   */
  onMerge?: 'move' | 'keep';
  /**
   * With `move`: the columns (or SQL expressions over the row's columns) that a unique index of the
   * table holds per user. A guest's row whose key the account has already is dropped, not moved (a
   * move would break the index, and with it the whole merge): the account keeps its own.
   */
  mergeKey?: string[];
  /**
   * With `move`: statements run first, in the merge's transaction, $1 the account and $2 the guest,
   * to settle what a partial unique index would refuse (one import under way per user).
   */
  beforeMerge?: string[];
  /**
   * On the account's deletion: delete its rows (default), or leave them to the service's purge hook
   * (exported all the same): a group a user created outlives them while others are in it.
   */
  onDelete?: 'delete' | 'hook';
  /** Columns derived from the others (a search index's vector): left out of the export. */
  omitFromExport?: string[];
}
