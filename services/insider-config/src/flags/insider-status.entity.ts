import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { InsiderFlags } from '@app/contracts/insider-config';

/** A user's insider standing (set by operators), their switch, and their stored flags. */
@Entity({ name: 'insider_status' })
export class InsiderStatusEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ name: 'is_insider', type: 'boolean', default: false })
  isInsider!: boolean;

  @Column({ name: 'is_insider_enabled', type: 'boolean', default: false })
  isInsiderEnabled!: boolean;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  flags!: Partial<InsiderFlags>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
