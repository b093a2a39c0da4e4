import type { MigrationInterface } from 'typeorm';
import { CreateAuth1763800000000 } from './1763800000000-create-auth';
import { BindPhoneCodes1765400000100 } from './1765400000100-bind-phone-codes';

/** The auth service's migrations, oldest first. */
export const authMigrations: (new () => MigrationInterface)[] = [CreateAuth1763800000000, BindPhoneCodes1765400000100];
