import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A read-only link to a conversation. */
@Entity({ name: 'share' })
export class ShareEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column({ name: 'chat_id', type: 'uuid' })
  chatId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
