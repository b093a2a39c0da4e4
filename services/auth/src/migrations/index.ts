import type { MigrationInterface } from 'typeorm';
import { CreateAuth1763800000000 } from './1763800000000-create-auth';

/** The auth service's migrations, oldest first. */
export const authMigrations: (new () => MigrationInterface)[] = [CreateAuth1763800000000];
