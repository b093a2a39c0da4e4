import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'conversation' })
export class ConversationEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true })
  lastMessageAt!: Date | null;

  @Column({ name: 'last_active_message_id', type: 'uuid', nullable: true })
  lastActiveMessageId!: string | null;

  @Column({ name: 'is_commercial', type: 'boolean', default: false })
  isCommercial!: boolean;

  /** Written in by several people (an SMS group): no one's memories are used, nothing is learnt. */
  @Column({ name: 'is_shared', type: 'boolean', default: false })
  isShared!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
