import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type IdentityProvider = 'phone' | 'google' | 'apple' | 'firebase';

/** One way of signing in to an account: a provider's subject, linked to one user. */
@Entity({ name: 'identity' })
export class IdentityEntity {
  @PrimaryColumn('text')
  provider!: IdentityProvider;

  @PrimaryColumn('text')
  subject!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
