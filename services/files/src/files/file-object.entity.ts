import { Column, Entity } from 'typeorm';
import { BIGINT_AS_NUMBER, UserFileColumns } from './user-file.columns';

/** A stored file: who owns it, what it is (decided by its bytes), where its bytes and derived objects live. */
@Entity({ name: 'file_object' })
export class FileObjectEntity extends UserFileColumns {
  @Column({ name: 'mime_type', type: 'text' })
  mimeType!: string;

  @Column({ type: 'bigint', transformer: BIGINT_AS_NUMBER })
  size!: number;

  @Column({ type: 'text' })
  sha256!: string;

  @Column({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  /** Objects made from this one (previews, extracted text), deleted with it. */
  @Column({ name: 'derived_keys', type: 'text', array: true, default: () => "'{}'" })
  derivedKeys!: string[];
}
