import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { InsiderFlagsSchema, type InsiderFlags, type InsiderFlagsUpdate, type InsiderStatus } from '@app/contracts/insider-config';
import { DomainError, SERVICE_CONFIG, userIdOf, type PublicOf } from '@app/platform';
import type { InsiderConfigEnv } from '../config';
import { BusFlagsChanges, type FlagsChanges } from './flags-changes';
import { InsiderStatusRepository, type InsiderStatusRow } from './insider-status.repository';

export const DEFAULT_FLAGS: InsiderFlags = {
  dislike_button_verbose_feedback: null,
  show_rewritten_user_message: null,
  show_auto_model_selection: null,
  enable_ko_search: null,
  can_create_invite: false,
};

const FLAG_NAMES = Object.keys(DEFAULT_FLAGS) as (keyof InsiderFlags)[];

export const INSIDERS_ONLY_MODE = 'Insider mode is only available to insiders.';
export const INSIDERS_ONLY_FLAGS = 'Insider flags are only available to insiders.';

/**
 * The effective flags (spec section 4): with insider mode on, the stored flags as they are;
 * otherwise all null except can_create_invite, which keeps its stored value.
 */
export function effectiveFlags(stored: InsiderFlags, insiderEnabled: boolean): InsiderFlags {
  if (insiderEnabled) return stored;
  return { ...DEFAULT_FLAGS, can_create_invite: stored.can_create_invite };
}

/** Flags merged into the stored ones; only the given fields change. */
export function mergeFlags(stored: Partial<InsiderFlags>, update: InsiderFlagsUpdate): Partial<InsiderFlags> {
  const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
  return { ...stored, ...changes };
}

/** What an operator command did, for the person who ran it. */
export interface StandingChange {
  changed: boolean;
  /** Still an insider through INSIDER_USER_IDS, whatever the database says. */
  allowListed: boolean;
}

/**
 * Insider standing (decided by operators: INSIDER_USER_IDS or the insider_status table), the
 * user's insider-mode switch, and their flags.
 */
@Injectable()
export class FlagsService {
  constructor(
    @Inject(InsiderStatusRepository) private readonly statuses: PublicOf<InsiderStatusRepository>,
    @Inject(SERVICE_CONFIG) private readonly config: InsiderConfigEnv,
    @Inject(BusFlagsChanges) private readonly changes: FlagsChanges,
  ) {}

  async effective(userId: string) {
    const row = await this.statuses.find(userId);
    const isInsider = this.isInsider(userId, row);
    const enabled = isInsider && (row?.isInsiderEnabled ?? false);
    return { is_insider: isInsider, is_insider_enabled: enabled, effective: effectiveFlags(this.storedFlags(isInsider, row), enabled) };
  }

  async status(caller: Caller): Promise<InsiderStatus> {
    const { is_insider, is_insider_enabled } = await this.effective(userIdOf(caller));
    return { is_insider, is_insider_enabled };
  }

  /** Only an insider may turn insider mode on; anyone may turn it off. */
  async setEnabled(caller: Caller, enabled: boolean): Promise<InsiderStatus> {
    const userId = userIdOf(caller);
    if (!enabled && !(await this.statuses.find(userId))) return this.status(caller);
    const row = await this.statuses.update(userId, (current) => {
      if (enabled && !this.isInsider(userId, current)) throw DomainError.forbidden(INSIDERS_ONLY_MODE);
      current.isInsiderEnabled = enabled;
    });
    this.changes.announce(userId);
    const isInsider = this.isInsider(userId, row);
    return { is_insider: isInsider, is_insider_enabled: isInsider && row.isInsiderEnabled };
  }

  /** The effective flags, for insiders only (the web client maps the 403 to no flags). */
  async flags(caller: Caller): Promise<InsiderFlags> {
    const userId = userIdOf(caller);
    const { is_insider, effective } = await this.effective(userId);
    if (!is_insider) throw DomainError.forbidden(INSIDERS_ONLY_FLAGS);
    return effective;
  }

  /** Merges the given flags into the stored ones (insiders only); answers the effective flags. */
  async updateFlags(caller: Caller, update: InsiderFlagsUpdate): Promise<InsiderFlags> {
    const userId = userIdOf(caller);
    if (!this.isInsider(userId, await this.statuses.find(userId))) throw DomainError.forbidden(INSIDERS_ONLY_FLAGS);
    const row = await this.statuses.update(userId, (current) => {
      if (!this.isInsider(userId, current)) throw DomainError.forbidden(INSIDERS_ONLY_FLAGS);
      current.flags = mergeFlags(current.flags, update);
    });
    this.changes.announce(userId);
    return effectiveFlags(this.storedFlags(true, row), row.isInsiderEnabled);
  }

  /** Operators only (the `grant-insider` command). */
  async grant(userId: string): Promise<StandingChange> {
    return this.standing(userId, true);
  }

  /** Operators only (the `revoke-insider` command); an allow-listed user stays an insider. */
  async revoke(userId: string): Promise<StandingChange> {
    return this.standing(userId, false);
  }

  private async standing(userId: string, isInsider: boolean): Promise<StandingChange> {
    const changed = await this.statuses.setInsider(userId, isInsider);
    if (changed) this.changes.announce(userId);
    return { changed, allowListed: this.allowListed(userId) };
  }

  private allowListed(userId: string): boolean {
    return this.config.INSIDER_USER_IDS.includes(userId);
  }

  private isInsider(userId: string, row: InsiderStatusRow | null): boolean {
    return this.allowListed(userId) || (row?.isInsider ?? false);
  }

  /** A non-insider has none; a stored value that is not a valid flag (an operator's typo) counts as unset. */
  private storedFlags(isInsider: boolean, row: InsiderStatusRow | null): InsiderFlags {
    if (!isInsider || !row) return DEFAULT_FLAGS;
    const flags: Record<string, unknown> = { ...DEFAULT_FLAGS };
    for (const name of FLAG_NAMES) {
      if (name in row.flags && InsiderFlagsSchema.shape[name].safeParse(row.flags[name]).success) flags[name] = row.flags[name];
    }
    return flags as InsiderFlags;
  }
}
