import { Column, CreateDateColumn, PrimaryColumn, type ValueTransformer } from 'typeorm';

/** Where a file's bytes came from: the user's upload, made by the product (a generated image), or an export zip to import. */
export type FileSource = 'upload' | 'generated' | 'import';

/** A `bigint` column (a string from the driver) read as a number: byte counts stay far below 2^53. */
export const BIGINT_AS_NUMBER: ValueTransformer = { to: (v: number) => v, from: (v: string) => Number(v) };

/**
 * The columns a stored file and the upload that makes one have in common: its id, its owner, its
 * (sanitised) name, where it came from and when it began.
 */
export abstract class UserFileColumns {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ type: 'text' })
  source!: FileSource;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
