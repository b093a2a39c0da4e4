import { ApiError } from '../../common/api/http';
import { isAuthenticated } from '../../common/api/dataCall';
import { createStore, useStore } from '../../common/state/createStore';
import { fetchInsiderFlags, fetchInsiderStatus, postInsiderEnabled, postInsiderFlags, type InsiderStatus, type StoredFlags } from '../api/insiderApi';

export type FlagName = keyof StoredFlags;

export const NOT_INSIDER: InsiderStatus = { is_insider: false, is_insider_enabled: false };
/** Defaults when not an insider (section 4): all null, can_create_invite false. */
export const DEFAULT_FLAGS: StoredFlags = {
  dislike_button_verbose_feedback: null,
  show_rewritten_user_message: null,
  show_auto_model_selection: null,
  enable_ko_search: null,
  can_create_invite: false,
};
/** A 403 on the flags read (section 6): no flags at all. */
export const FORBIDDEN_FLAGS: StoredFlags = { ...DEFAULT_FLAGS, can_create_invite: null };

export type InsiderState = {
  status: InsiderStatus;
  flags: StoredFlags;
  loading: boolean;
  /** The endpoints answered 404: this server has no insider configuration yet. */
  unavailable: boolean;
  error: string | null;
};

export const insiderStore = createStore<InsiderState>(() => ({ status: NOT_INSIDER, flags: DEFAULT_FLAGS, loading: false, unavailable: false, error: null }));

/** Effective flags (section 4): enabled insiders get the stored flags; otherwise only can_create_invite survives. */
export function effectiveFlags(status: InsiderStatus, flags: StoredFlags): StoredFlags {
  if (status.is_insider_enabled) return flags;
  return { ...DEFAULT_FLAGS, can_create_invite: flags.can_create_invite };
}

const notFound = (error: unknown) => error instanceof ApiError && error.status === 404;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** After login: the status, then the flags only for an insider with insider mode enabled. */
export async function loadInsider(): Promise<void> {
  if (!isAuthenticated()) {
    insiderStore.set({ status: NOT_INSIDER, flags: DEFAULT_FLAGS });
    return;
  }
  try {
    const status = (await fetchInsiderStatus()) ?? NOT_INSIDER;
    insiderStore.set({ status, unavailable: false });
    if (status.is_insider && status.is_insider_enabled) await loadFlags();
  } catch (error) {
    if (notFound(error)) insiderStore.set({ unavailable: true });
    console.error(error); // status reads keep the defaults
  }
}

/**
 * For the settings page: an insider with insider mode off still has can_create_invite in force
 * (section 6), which start-up does not fetch (section 4). The server's answer then holds only that.
 */
export async function loadInsiderForSettings(): Promise<void> {
  await loadInsider();
  const { status } = insiderStore.get();
  if (status.is_insider && !status.is_insider_enabled) await loadFlags();
}

export async function loadFlags(): Promise<void> {
  try {
    const flags = await fetchInsiderFlags();
    if (flags) insiderStore.set({ flags });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) insiderStore.set({ flags: FORBIDDEN_FLAGS });
    else console.error(error);
  }
}

/** The switch: optimistic, replaced by the server's answer, reverted to the opposite of the request on failure. */
export async function setInsiderEnabled(enabled: boolean): Promise<void> {
  insiderStore.set((s) => ({ status: { ...s.status, is_insider_enabled: enabled }, loading: true, error: null }));
  try {
    const status = await postInsiderEnabled(enabled);
    if (status) insiderStore.set({ status });
    if (status?.is_insider && status.is_insider_enabled) await loadFlags();
  } catch (error) {
    console.error(error);
    insiderStore.set((s) => ({ status: { ...s.status, is_insider_enabled: !enabled }, error: `Could not change insider mode: ${messageOf(error)}` }));
    throw error;
  } finally {
    insiderStore.set({ loading: false });
  }
}

/** A flag update: merged optimistically, replaced by the server's flags, the previous flags restored on failure. */
export async function updateFlags(patch: Partial<StoredFlags>): Promise<void> {
  const previous = insiderStore.get().flags;
  insiderStore.set({ flags: { ...previous, ...patch }, loading: true, error: null });
  try {
    const flags = await postInsiderFlags(patch);
    if (flags) insiderStore.set({ flags });
  } catch (error) {
    console.error(error);
    insiderStore.set({ flags: previous, error: `Could not save the flag: ${messageOf(error)}` });
    throw error;
  } finally {
    insiderStore.set({ loading: false });
  }
}

export function resetInsider(): void {
  insiderStore.reset();
}

export const useInsider = <T,>(selector: (state: InsiderState) => T) => useStore(insiderStore, selector);
/** One effective flag, for the screens that read it. */
export const useEffectiveFlag = (name: FlagName) => useStore(insiderStore, (s) => effectiveFlags(s.status, s.flags)[name]);
