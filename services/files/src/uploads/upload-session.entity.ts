import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * An upload in progress. Its chunks are objects in the store (uploads/<id>/<seq>), so any replica
 * of the service can take any chunk; this row keeps the order, the size so far and the type.
 */
@Entity({ name: 'upload_session' })
export class UploadSessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'declared_type', type: 'text', nullable: true })
  declaredType!: string | null;

  /** Decided by the first chunk. */
  @Column({ name: 'mime_type', type: 'text', nullable: true })
  mimeType!: string | null;

  @Column({ type: 'text' })
  source!: 'upload' | 'generated';

  @Column({ name: 'received_bytes', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  receivedBytes!: number;

  @Column({ name: 'next_seq', type: 'int' })
  nextSeq!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
