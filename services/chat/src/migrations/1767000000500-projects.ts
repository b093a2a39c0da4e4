import { sqlMigration } from '@app/platform';

/**
 * Projects (issue 25, part 5): a user's conversations grouped, with instructions added to the prompt
 * of each and files (references to the user's uploads, with the type and name the files service
 * gave them) shown to the model in each. A conversation is in at most one project; deleting a
 * project that still has conversations moves them out (SET NULL) unless the service deletes them first.
 */
export const Projects1767000000500 = sqlMigration('Projects1767000000500', {
  up: [
    `CREATE TABLE project (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      name text NOT NULL,
      instructions text NOT NULL DEFAULT '',
      files jsonb NOT NULL DEFAULT '[]'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE INDEX project_user_idx ON project (user_id)',
    'ALTER TABLE conversation ADD COLUMN project_id uuid REFERENCES project (id) ON DELETE SET NULL',
    'CREATE INDEX conversation_project_idx ON conversation (project_id) WHERE project_id IS NOT NULL',
  ],
  down: ['DROP INDEX conversation_project_idx', 'ALTER TABLE conversation DROP COLUMN project_id', 'DROP TABLE project'],
});
