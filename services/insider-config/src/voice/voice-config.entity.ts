import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A user's AI voice settings as last saved (the service reads them through normalizeVoiceConfig). */
@Entity({ name: 'voice_config' })
export class VoiceConfigEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  /** Whole settings, validated before saving; read defensively, since allow-lists may change. */
  @Column({ type: 'jsonb' })
  config!: Record<string, unknown>;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
