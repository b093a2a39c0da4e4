import { API } from '@app/contracts/gateway';
import { NOT_AUTHENTICATED, UNAUTHORIZED, isAuthenticated } from '../../common/api/dataCall';
import { apiErrorOf, apiFetch, routeCall } from '../../common/api/http';
import { logout } from '../../auth/state/authStore';

/** GET /users/me/export: the zip, saved as the file the server names. */
export async function downloadExport(): Promise<string> {
  if (!isAuthenticated()) throw new Error(NOT_AUTHENTICATED);
  const call = routeCall(API.account.export, {});
  const response = await apiFetch(call.url, call.init);
  if (response.status === 401) {
    await logout();
    throw new Error(UNAUTHORIZED);
  }
  if (!response.ok) throw await apiErrorOf(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `assistant-export-${new Date().toISOString().slice(0, 10)}.zip`;
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}

/** DELETE /users/me: 204 when done, 202 {detail} while it finishes. Answers the message to show. */
export async function deleteAccount(): Promise<string> {
  if (!isAuthenticated()) throw new Error(NOT_AUTHENTICATED);
  const { url, init } = routeCall(API.account.delete, {});
  const response = await apiFetch(url, init);
  if (response.status === 401) {
    await logout();
    throw new Error(UNAUTHORIZED);
  }
  if (!response.ok) throw await apiErrorOf(response);
  if (response.status === 202) {
    const body = (await response.json().catch(() => ({}))) as { detail?: string };
    return body.detail ?? 'Your account is being deleted.';
  }
  return 'Your account and all its data have been deleted.';
}
