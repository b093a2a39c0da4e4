import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'app_user' })
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'phone_number', type: 'text', nullable: true, unique: true })
  phoneNumber!: string | null;

  @Column({ name: 'is_anon', type: 'boolean' })
  isAnon!: boolean;

  @Column({ type: 'boolean', default: false })
  registered!: boolean;

  @Column({ name: 'onboarding_done', type: 'boolean', default: false })
  onboardingDone!: boolean;

  /** When the user confirmed being of age (the birth date itself is not kept). */
  @Column({ name: 'adult_confirmed_at', type: 'timestamptz', nullable: true })
  adultConfirmedAt!: Date | null;

  @Column({ name: 'campaign_name', type: 'text', nullable: true })
  campaignName!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A user not saved yet: a new account's defaults (not registered, not onboarded, nothing known of them) under `fields`. */
export function newUser(fields: Partial<UserEntity> & Pick<UserEntity, 'id' | 'isAnon'>): UserEntity {
  return Object.assign(new UserEntity(), {
    registered: false,
    onboardingDone: false,
    name: null,
    email: null,
    phoneNumber: null,
    adultConfirmedAt: null,
    campaignName: null,
    ...fields,
  });
}
