import type { ServiceDefinition } from '@app/platform';
import { AccountDeletionEntity } from './account/account-deletion.entity';
import { AuthModule } from './auth.module';
import { CampaignEntity } from './campaigns/campaign.entity';
import { authEnvSchema } from './config';
import { InviteEntity, InviteRedemptionEntity } from './invites/invite.entity';
import { PhoneCodeEntity } from './login/phone-code.entity';
import { authMigrations } from './migrations';
import { SessionEntity } from './sessions/session.entity';
import { AuthSecretEntity, SigningKeyEntity } from './tokens/signing-key.entity';
import { IdentityEntity } from './users/identity.entity';
import { UserEntity } from './users/user.entity';

export const authService: ServiceDefinition = {
  name: 'auth',
  module: AuthModule,
  config: authEnvSchema,
  entities: [
    UserEntity,
    IdentityEntity,
    SessionEntity,
    PhoneCodeEntity,
    InviteEntity,
    InviteRedemptionEntity,
    CampaignEntity,
    AccountDeletionEntity,
    SigningKeyEntity,
    AuthSecretEntity,
  ],
  migrations: authMigrations,
  userData: {
    // Exported as they are; the account itself is deleted last, once every other service purged.
    tables: [
      { table: 'app_user', userColumn: 'id', onMerge: 'keep' },
      { table: 'identity', userColumn: 'user_id', onMerge: 'keep' },
      { table: 'session', userColumn: 'user_id', onMerge: 'keep' },
      { table: 'invite_link', userColumn: 'created_by', onMerge: 'keep' },
      { table: 'invite_redemption', userColumn: 'user_id', onMerge: 'keep' },
    ],
    purgeOnDelete: false,
  },
};
