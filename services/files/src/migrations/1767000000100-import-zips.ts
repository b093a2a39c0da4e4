import { sqlMigration } from '@app/platform';

/** Export zips uploaded to be imported (issue 25, part 3): a source of their own, so they are never taken as attachments. */
export const ImportZips1767000000100 = sqlMigration('ImportZips1767000000100', {
  up: [
    'ALTER TABLE file_object DROP CONSTRAINT file_object_source_check',
    "ALTER TABLE file_object ADD CONSTRAINT file_object_source_check CHECK (source IN ('upload', 'generated', 'import'))",
    'ALTER TABLE upload_session DROP CONSTRAINT upload_session_source_check',
    "ALTER TABLE upload_session ADD CONSTRAINT upload_session_source_check CHECK (source IN ('upload', 'generated', 'import'))",
  ],
  down: [
    "DELETE FROM file_object WHERE source = 'import'",
    "DELETE FROM upload_session WHERE source = 'import'",
    'ALTER TABLE file_object DROP CONSTRAINT file_object_source_check',
    "ALTER TABLE file_object ADD CONSTRAINT file_object_source_check CHECK (source IN ('upload', 'generated'))",
    'ALTER TABLE upload_session DROP CONSTRAINT upload_session_source_check',
    "ALTER TABLE upload_session ADD CONSTRAINT upload_session_source_check CHECK (source IN ('upload', 'generated'))",
  ],
});
