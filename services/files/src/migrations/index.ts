import type { MigrationInterface } from 'typeorm';
import { CreateFiles1764100000100 } from './1764100000100-create-files';
import { ImportZips1767000000100 } from './1767000000100-import-zips';

/** The files service's migrations, oldest first. */
export const filesMigrations: (new () => MigrationInterface)[] = [CreateFiles1764100000100, ImportZips1767000000100];
