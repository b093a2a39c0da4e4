import type { InsiderFlags } from '@app/contracts/insider-config';
import { optionalCall } from '../../common/api/dataCall';
import { jsonBody } from '../../common/api/http';

export type InsiderStatus = { is_insider: boolean; is_insider_enabled: boolean };
/** Flags as the client holds them; a 403 on the read maps every flag to null, can_create_invite included. */
export type StoredFlags = Omit<InsiderFlags, 'can_create_invite'> & { can_create_invite: boolean | null };

const BASE = '/api/v1/user_config/insider-mode';

export const fetchInsiderStatus = () => optionalCall<InsiderStatus>(BASE);
export const postInsiderEnabled = (isInsiderEnabled: boolean) =>
  optionalCall<InsiderStatus>(BASE, { method: 'POST', ...jsonBody({ is_insider_enabled: isInsiderEnabled }) });
export const fetchInsiderFlags = () => optionalCall<StoredFlags>(`${BASE}/insider-flags`);
export const postInsiderFlags = (patch: Partial<StoredFlags>) => optionalCall<StoredFlags>(`${BASE}/insider-flags`, { method: 'POST', ...jsonBody(patch) });
