import { API } from '@app/contracts/gateway';
import type { InsiderFlags } from '@app/contracts/insider-config';
import { optionalCall } from '../../common/api/dataCall';
import { routeCall } from '../../common/api/http';

export type InsiderStatus = { is_insider: boolean; is_insider_enabled: boolean };
/** Flags as the client holds them; a 403 on the read maps every flag to null, can_create_invite included. */
export type StoredFlags = Omit<InsiderFlags, 'can_create_invite'> & { can_create_invite: boolean | null };

export const fetchInsiderStatus = (): Promise<InsiderStatus | undefined> => optionalCall(routeCall(API.userConfig.insiderMode, {}));
export const postInsiderEnabled = (isInsiderEnabled: boolean): Promise<InsiderStatus | undefined> =>
  optionalCall(routeCall(API.userConfig.setInsiderMode, { body: { is_insider_enabled: isInsiderEnabled } }));
export const fetchInsiderFlags = (): Promise<StoredFlags | undefined> => optionalCall(routeCall(API.userConfig.insiderFlags, {}));
/** Flags that are null (unknown after a 403) are not sent. */
export const postInsiderFlags = (patch: Partial<StoredFlags>): Promise<StoredFlags | undefined> =>
  optionalCall(routeCall(API.userConfig.setInsiderFlags, { body: patch as Partial<InsiderFlags> }));
