import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One long-term memory of a user. `subject_key` names what it is about (`home`, `diet`,
 * `relation:wife`, `preference:jazz`...): a new statement about the same subject replaces it.
 * `normalized_text` finds duplicates; `search` (a generated tsvector) ranks it for a query.
 */
@Entity({ name: 'user_memory' })
export class UserMemoryEntity {
  @PrimaryColumn({ name: 'user_memory_id', type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'source_chat_id', type: 'uuid', nullable: true })
  sourceChatId!: string | null;

  @Column({ name: 'source_message_id', type: 'uuid', nullable: true })
  sourceMessageId!: string | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'normalized_text', type: 'text' })
  normalizedText!: string;

  @Column({ name: 'subject_key', type: 'text', nullable: true })
  subjectKey!: string | null;

  @Column({ name: 'is_inference', type: 'boolean', default: false })
  isInference!: boolean;

  @Column({ name: 'is_fact', type: 'boolean', default: true })
  isFact!: boolean;

  @Column({ name: 'is_confirmed', type: 'boolean', default: false })
  isConfirmed!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'removed_at', type: 'timestamptz', nullable: true })
  removedAt!: Date | null;
}
