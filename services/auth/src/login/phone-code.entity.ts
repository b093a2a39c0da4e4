import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A texted sign-in code. Only its keyed hash is kept. */
@Entity({ name: 'phone_code' })
export class PhoneCodeEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'phone_number', type: 'text' })
  phoneNumber!: string;

  @Column({ name: 'code_hash', type: 'text' })
  codeHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;

  /** The guest who asked for the code: their data follows them into the account. */
  @Column({ name: 'guest_user_id', type: 'uuid', nullable: true })
  guestUserId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
