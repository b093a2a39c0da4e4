import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A stored file: who owns it, what it is (decided by its bytes), where its bytes and derived objects live. */
@Entity({ name: 'file_object' })
export class FileObjectEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'mime_type', type: 'text' })
  mimeType!: string;

  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  size!: number;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ type: 'text' })
  source!: 'upload' | 'generated';

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  /** Objects made from this one (previews, extracted text), deleted with it. */
  @Column({ name: 'derived_keys', type: 'text', array: true, default: () => "'{}'" })
  derivedKeys!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
