import { Column, Entity, UpdateDateColumn } from 'typeorm';
import { BIGINT_AS_NUMBER, UserFileColumns } from '../files/user-file.columns';

/**
 * An upload in progress. Its chunks are objects in the store (uploads/<id>/<seq>), so any replica
 * of the service can take any chunk; this row keeps the order, the size so far and the type.
 */
@Entity({ name: 'upload_session' })
export class UploadSessionEntity extends UserFileColumns {
  @Column({ name: 'declared_type', type: 'text', nullable: true })
  declaredType!: string | null;

  /** Decided by the first chunk. */
  @Column({ name: 'mime_type', type: 'text', nullable: true })
  mimeType!: string | null;

  @Column({ name: 'received_bytes', type: 'bigint', transformer: BIGINT_AS_NUMBER })
  receivedBytes!: number;

  @Column({ name: 'next_seq', type: 'int' })
  nextSeq!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
