import { API } from '@app/contracts/gateway';
import type { InsiderFlags } from '@app/contracts/insider-config';
import { call } from '../../common/api/http';

export type InsiderStatus = { is_insider: boolean; is_insider_enabled: boolean };
/** Flags as the client holds them; a 403 on the read maps every flag to null, can_create_invite included. */
export type StoredFlags = Omit<InsiderFlags, 'can_create_invite'> & { can_create_invite: boolean | null };

/** Insider calls are skipped (undefined) without a login, and after a 401 (which logs out). */
const skipped = { orElse: undefined };

export const fetchInsiderStatus = (): Promise<InsiderStatus | undefined> => call(API.userConfig.insiderMode, {}, skipped);
export const postInsiderEnabled = (isInsiderEnabled: boolean): Promise<InsiderStatus | undefined> =>
  call(API.userConfig.setInsiderMode, { body: { is_insider_enabled: isInsiderEnabled } }, skipped);
export const fetchInsiderFlags = (): Promise<StoredFlags | undefined> => call(API.userConfig.insiderFlags, {}, skipped);
/** Flags that are null (unknown after a 403) are not sent. */
export const postInsiderFlags = (patch: Partial<StoredFlags>): Promise<StoredFlags | undefined> =>
  call(API.userConfig.setInsiderFlags, { body: patch as Partial<InsiderFlags> }, skipped);
