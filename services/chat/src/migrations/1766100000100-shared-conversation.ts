import { sqlMigration } from '@app/platform';

/**
 * A conversation several people write in (an SMS group, through the sms service) is `shared`: its
 * replies use nobody's memories and nothing is learnt from it, so what one member said never
 * becomes a memory that outlives their account or reaches another member.
 */
export const SharedConversation1766100000100 = sqlMigration('SharedConversation1766100000100', {
  up: ['ALTER TABLE conversation ADD COLUMN is_shared boolean NOT NULL DEFAULT false'],
  down: ['ALTER TABLE conversation DROP COLUMN is_shared'],
});
