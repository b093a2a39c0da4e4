import { Injectable } from '@nestjs/common';
import type { AiVoiceConfig } from '@app/contracts/insider-config';
import { lockLivingUser } from '@app/platform';
import { DataSource } from 'typeorm';
import { VoiceConfigEntity } from './voice-config.entity';

/** What the voice settings logic needs from storage (a typed fake stands in for it in unit tests). */
export interface VoiceConfigStore {
  /** The stored settings, as saved (possibly by an older version), or null when never saved. */
  find(userId: string): Promise<Record<string, unknown> | null>;
  /**
   * One change, all or nothing: `change` gets the stored settings (the user's changes are
   * serialised meanwhile) and returns the settings to save; if it throws, nothing is written.
   */
  update(userId: string, change: (stored: Record<string, unknown> | null) => AiVoiceConfig): Promise<AiVoiceConfig>;
}

@Injectable()
export class VoiceConfigRepository implements VoiceConfigStore {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<Record<string, unknown> | null> {
    const row = await this.dataSource.getRepository(VoiceConfigEntity).findOne({ where: { userId } });
    return row?.config ?? null;
  }

  update(userId: string, change: (stored: Record<string, unknown> | null) => AiVoiceConfig): Promise<AiVoiceConfig> {
    return this.dataSource.transaction(async (manager) => {
      // The user's lock also covers the first save, when there is no row to lock yet.
      await lockLivingUser(manager, userId);
      const row = await manager.findOne(VoiceConfigEntity, { where: { userId } });
      const next = change(row?.config ?? null);
      await manager.upsert(VoiceConfigEntity, { userId, config: next }, ['userId']);
      return next;
    });
  }
}
