import type { InsiderStatus, StoredFlags } from '../api/insiderApi';

export type FlagName = keyof StoredFlags;

export const NOT_INSIDER: InsiderStatus = { is_insider: false, is_insider_enabled: false };
/** Defaults when not an insider: all null, can_create_invite false. */
export const DEFAULT_FLAGS: StoredFlags = {
  dislike_button_verbose_feedback: null,
  show_rewritten_user_message: null,
  show_auto_model_selection: null,
  enable_ko_search: null,
  can_create_invite: false,
};
/** A 403 on the flags read means no flags at all, can_create_invite included. */
export const FORBIDDEN_FLAGS: StoredFlags = { ...DEFAULT_FLAGS, can_create_invite: null };

/** Effective flags: enabled insiders get the stored flags; otherwise only can_create_invite survives. */
export function effectiveFlags(status: InsiderStatus, flags: StoredFlags): StoredFlags {
  if (status.is_insider_enabled) return flags;
  return { ...DEFAULT_FLAGS, can_create_invite: flags.can_create_invite };
}
