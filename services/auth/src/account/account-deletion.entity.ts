import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A deletion in progress: which services still have to confirm their purge. When done, the
 * user id is cleared, so nothing identifies the user any more.
 */
@Entity({ name: 'account_deletion' })
export class AccountDeletionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ name: 'pending_services', type: 'text', array: true })
  pendingServices!: string[];

  @CreateDateColumn({ name: 'requested_at', type: 'timestamptz' })
  requestedAt!: Date;

  @Column({ name: 'last_published_at', type: 'timestamptz' })
  lastPublishedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
