import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

/** GET /users/me/export: the zip, saved as the file the server names. */
export async function downloadExport(): Promise<string> {
  const { blob, disposition } = await call(
    API.account.export,
    {},
    { read: async (response) => ({ blob: await response.blob(), disposition: response.headers.get('content-disposition') ?? '' }) },
  );
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? `assistant-export-${new Date().toISOString().slice(0, 10)}.zip`;
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
export const deleteAccount = (): Promise<string> =>
  call(
    API.account.delete,
    {},
    {
      read: async (response) => {
        if (response.status !== 202) return 'Your account and all its data have been deleted.';
        const body = (await response.json().catch(() => ({}))) as { detail?: string };
        return body.detail ?? 'Your account is being deleted.';
      },
    },
  );
