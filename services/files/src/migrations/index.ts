import type { MigrationInterface } from 'typeorm';
import { CreateFiles1764100000100 } from './1764100000100-create-files';

/** The files service's migrations, oldest first. */
export const filesMigrations: (new () => MigrationInterface)[] = [CreateFiles1764100000100];
