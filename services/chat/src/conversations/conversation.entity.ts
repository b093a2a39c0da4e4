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

  /** A temporary chat's end (null for any other): deleted then, or sooner when its user closes it. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** The project it is in (null: none); never set on a temporary chat. */
  @Column({ name: 'project_id', type: 'uuid', nullable: true })
  projectId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Whether a conversation's replies use no memories and teach nothing: a shared one (an SMS group:
 * several people's words) or a temporary chat.
 */
export const usesNoMemory = (conversation: Pick<ConversationEntity, 'isShared' | 'expiresAt'>) =>
  conversation.isShared || conversation.expiresAt !== null;
