import { sqlMigration } from '@app/platform';

/**
 * The files an import job stored for a conversation it has not written yet (`held_files`): kept on
 * the job as each is stored, emptied in the transaction that writes the conversation, so that a run
 * that dies in between leaves nothing unknown: the next run (or a cancel) deletes them, and the
 * worker's sweep those of a job over whose delete failed.
 */
export const ImportHeldFiles1767000000700 = sqlMigration('ImportHeldFiles1767000000700', {
  up: [
    "ALTER TABLE import_job ADD COLUMN held_files text[] NOT NULL DEFAULT '{}'",
    // The worker's sweep of jobs over that still hold files (a delete that failed): almost always empty.
    "CREATE INDEX import_job_holding_idx ON import_job (updated_at) WHERE held_files <> '{}' AND status IN ('done', 'failed', 'cancelled')",
  ],
  down: ['DROP INDEX import_job_holding_idx', 'ALTER TABLE import_job DROP COLUMN held_files'],
});
