import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type MessageStatus = 'complete' | 'streaming' | 'incomplete';

/** One message of a conversation; messages form a tree through `previous_message_id`. */
@Entity({ name: 'message' })
export class MessageEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'chat_id', type: 'uuid' })
  chatId!: string;

  /** The owner of the conversation (every query is scoped by it). */
  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  sender!: string;

  @Column({ name: 'author_user_id', type: 'uuid', nullable: true })
  authorUserId!: string | null;

  @Column({ name: 'expert_id', type: 'text', nullable: true })
  expertId!: string | null;

  @Column({ name: 'expert_name', type: 'text', nullable: true })
  expertName!: string | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'text', nullable: true })
  feedback!: 'like' | 'dislike' | null;

  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  @Column({ name: 'previous_message_id', type: 'uuid', nullable: true })
  previousMessageId!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  /** `streaming` (being written), `complete`, or `incomplete` (cut short: an error, a stop, a crash). */
  @Column({ type: 'text', default: 'complete' })
  status!: MessageStatus;

  /** While `streaming`: until when the process writing it is presumed alive (it renews this). */
  @Column({ name: 'lease_expires_at', type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
