import { sqlMigration } from '@app/platform';

/**
 * An import its user cancelled (issue 28's follow-up of the imports): `cancelled` is over like `done`
 * and `failed` (another import may start at once); what was written before it stays.
 */
export const ImportCancel1767000000600 = sqlMigration('ImportCancel1767000000600', {
  up: [
    'ALTER TABLE import_job DROP CONSTRAINT import_job_status_check',
    "ALTER TABLE import_job ADD CONSTRAINT import_job_status_check CHECK (status IN ('queued', 'running', 'done', 'failed', 'cancelled'))",
  ],
  down: [
    "UPDATE import_job SET status = 'failed', error = 'The import was cancelled.' WHERE status = 'cancelled'",
    'ALTER TABLE import_job DROP CONSTRAINT import_job_status_check',
    "ALTER TABLE import_job ADD CONSTRAINT import_job_status_check CHECK (status IN ('queued', 'running', 'done', 'failed'))",
  ],
});
