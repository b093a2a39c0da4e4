import { sqlMigration } from '@app/platform';

/**
 * A texted code is bound to the browser that asked for it: the hash of the nonce held in that
 * browser's `phone_login` cookie, and the asking guest's session (so that the guest is carried into
 * the account only when that same browser completes the sign-in, while the guest's session still lives).
 */
export const BindPhoneCodes1765400000100 = sqlMigration('BindPhoneCodes1765400000100', {
  up: [
    'ALTER TABLE phone_code ADD COLUMN binding_hash text',
    'ALTER TABLE phone_code ADD COLUMN guest_session_id uuid',
    // Codes asked for before this change belong to no browser: they cannot be completed any more.
    'UPDATE phone_code SET consumed_at = now() WHERE consumed_at IS NULL',
  ],
  down: ['ALTER TABLE phone_code DROP COLUMN guest_session_id', 'ALTER TABLE phone_code DROP COLUMN binding_hash'],
});
