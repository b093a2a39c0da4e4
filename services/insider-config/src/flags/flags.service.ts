import { Inject, Injectable } from '@nestjs/common';
import type { InsiderFlags } from '@app/contracts/insider-config';
import { SERVICE_CONFIG } from '@app/platform';
import type { InsiderConfigEnv } from '../config';
import { InsiderStatusRepository } from './insider-status.repository';

export const DEFAULT_FLAGS: InsiderFlags = {
  dislike_button_verbose_feedback: null,
  show_rewritten_user_message: null,
  show_auto_model_selection: null,
  enable_ko_search: null,
  can_create_invite: false,
};

/**
 * The effective flags (spec section 4): with insider mode on, the stored flags as they are;
 * otherwise all null except can_create_invite, which keeps its stored value.
 */
export function effectiveFlags(stored: InsiderFlags, insiderEnabled: boolean): InsiderFlags {
  if (insiderEnabled) return stored;
  return { ...DEFAULT_FLAGS, can_create_invite: stored.can_create_invite };
}

@Injectable()
export class FlagsService {
  constructor(
    private readonly statuses: InsiderStatusRepository,
    @Inject(SERVICE_CONFIG) private readonly config: InsiderConfigEnv,
  ) {}

  async effective(userId: string) {
    const row = await this.statuses.find(userId);
    const isInsider = this.config.INSIDER_USER_IDS.includes(userId) || (row?.isInsider ?? false);
    const enabled = isInsider && (row?.isInsiderEnabled ?? false);
    const stored: InsiderFlags = isInsider ? { ...DEFAULT_FLAGS, ...(row?.flags ?? {}) } : DEFAULT_FLAGS;
    return { is_insider: isInsider, is_insider_enabled: enabled, effective: effectiveFlags(stored, enabled) };
  }
}
