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

  /**
   * The guest who asked for the code, and their session: carried into the account only when the
   * same browser completes the sign-in (see bindingHash) while that session still lives.
   */
  @Column({ name: 'guest_user_id', type: 'uuid', nullable: true })
  guestUserId!: string | null;

  @Column({ name: 'guest_session_id', type: 'uuid', nullable: true })
  guestSessionId!: string | null;

  /** Hash of the nonce in the asking browser's `phone_login` cookie (null: no browser can complete it). */
  @Column({ name: 'binding_hash', type: 'text', nullable: true })
  bindingHash!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
