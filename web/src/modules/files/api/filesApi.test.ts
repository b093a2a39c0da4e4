import { SendMessageBodySchema } from '@app/contracts/chat';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { authStore } from '../../auth/state/authStore';
import { fetchPresignedFile, fetchPresignedFiles, MAX_ATTACHMENTS, uploadFile } from './filesApi';

const png = { object_store_object_id: 'f-png', mime_type: 'image/png' };
const pdf = { object_store_object_id: 'f-pdf', mime_type: 'application/pdf' };
const signed = (id: string, preview: string | null, filename: string) => ({
  presigned_url: `/api/v1/files/view/${id}?expires=1&signature=s`,
  preview_data_url: preview,
  filename,
});

describe('files calls (spec sections 3, 5, 7 and 8)', () => {
  beforeEach(() => {
    signedIn();
  });

  it('takes at most what a message takes', () => {
    const refs = Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => ({ object_store_object_id: `f${i}`, mime_type: 'image/png' }));
    expect(SendMessageBodySchema.safeParse({ content: 'x', files: refs.slice(0, MAX_ATTACHMENTS) }).success).toBe(true);
    expect(SendMessageBodySchema.safeParse({ content: 'x', files: refs }).success).toBe(false);
  });

  it('uploads as multipart in the field `file` with the bearer token', async () => {
    const api = mockFetch({
      'POST /api/v1/files/': json(201, { object_store_object_id: 'f1', mime_type: 'image/png', filename: 'cat.png', size: 4 }),
    });
    const seen: FormData[] = [];
    api.fetchMock.mockImplementationOnce(async (_url, init) => {
      seen.push(init?.body as FormData);
      return json(201, { object_store_object_id: 'f1', mime_type: 'image/png', filename: 'cat.png', size: 4 });
    });
    const result = await uploadFile(new File([new Uint8Array([137, 80, 78, 71])], 'cat.png', { type: 'image/png' }));
    expect(result).toEqual({ object_store_object_id: 'f1', mime_type: 'image/png', filename: 'cat.png', size: 4 });
    const file = seen[0].get('file') as File;
    expect(file.name).toBe('cat.png');
    expect(file.size).toBe(4);
  });

  it('says why an upload is refused: the 413 and 415 detail as it is, a plain sentence without one', async () => {
    mockFetch({ 'POST /api/v1/files/': json(413, { detail: 'The file is larger than 20 MB.' }) });
    await expect(uploadFile(new File(['x'], 'big.png'))).rejects.toThrow('The file is larger than 20 MB.');
    mockFetch({ 'POST /api/v1/files/': json(415, { detail: 'This type of file is not accepted (application/x-msdownload).' }) });
    await expect(uploadFile(new File(['MZ'], 'evil.png'))).rejects.toThrow('This type of file is not accepted (application/x-msdownload).');
    mockFetch({ 'POST /api/v1/files/': new Response('<html>Too large</html>', { status: 413 }) });
    await expect(uploadFile(new File(['x'], 'big.png'))).rejects.toThrow('This file is too large to attach.');
    mockFetch({ 'POST /api/v1/files/': new Response('', { status: 415 }) });
    await expect(uploadFile(new File(['x'], 'odd.bin'))).rejects.toThrow('This type of file cannot be attached.');
  });

  it('an upload needs a login, and a 401 logs out', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null });
    const none = mockFetch({});
    await expect(uploadFile(new File(['x'], 'a.txt'))).rejects.toThrow('Not authenticated');
    expect(none.calls).toHaveLength(0);
    signedIn();
    mockFetch({
      'POST /api/v1/files/': json(401, {}),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }),
    });
    await expect(uploadFile(new File(['x'], 'a.txt'))).rejects.toThrow(/^Unauthorized$/);
    expect(authStore.get().isLoggedIn).toBe(false);
  });

  it('asks a preview (256 by default) for images only, and through the share on a shared page', async () => {
    const api = mockFetch({
      'GET /api/v1/files/presigned/f-png': json(200, signed('f-png', 'data:image/webp;base64,AA', 'cat.png')),
      'GET /api/v1/files/presigned/f-pdf': json(200, signed('f-pdf', null, 'doc.pdf')),
    });
    await fetchPresignedFile(png);
    await fetchPresignedFile(pdf);
    await fetchPresignedFile(png, { shareId: 'sh1', previewResolution: 512 });
    await fetchPresignedFile(pdf, { shareId: 'sh1' });
    expect(api.calls.map((c) => c.url)).toEqual([
      '/api/v1/files/presigned/f-png?preview_resolution=256',
      '/api/v1/files/presigned/f-pdf',
      '/api/v1/files/presigned/f-png?preview_resolution=512&share_id=sh1',
      '/api/v1/files/presigned/f-pdf?share_id=sh1',
    ]);
  });

  it('answers each file with isLoading = true, in the message’s order', async () => {
    mockFetch({
      'GET /api/v1/files/presigned/f-png': json(200, signed('f-png', 'data:image/webp;base64,AA', 'cat.png')),
      'GET /api/v1/files/presigned/f-pdf': json(200, signed('f-pdf', null, 'doc.pdf')),
    });
    await expect(fetchPresignedFiles([pdf, png])).resolves.toEqual([
      { ...pdf, ...signed('f-pdf', null, 'doc.pdf'), isLoading: true },
      { ...png, ...signed('f-png', 'data:image/webp;base64,AA', 'cat.png'), isLoading: true },
    ]);
  });

  it('a failed presign throws the spec’s text; overall it is logged and yields an empty list', async () => {
    mockFetch({
      'GET /api/v1/files/presigned/f-png': json(200, signed('f-png', 'data:,', 'cat.png')),
      'GET /api/v1/files/presigned/f-pdf': json(404, { detail: 'File not found' }),
    });
    await expect(fetchPresignedFile(pdf)).rejects.toThrow(/^Failed to get presigned URL for file f-pdf$/);
    await expect(fetchPresignedFiles([png, pdf])).resolves.toEqual([]);
    expect(console.error).toHaveBeenCalledWith(expect.objectContaining({ message: 'Failed to get presigned URL for file f-pdf' }));
  });

  it('yields an empty list without a login (nothing asked) and after a 401 (logged out)', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null });
    const none = mockFetch({});
    await expect(fetchPresignedFiles([png])).resolves.toEqual([]);
    expect(none.calls).toHaveLength(0);
    signedIn();
    mockFetch({
      'GET /api/v1/files/presigned/f-png': json(401, {}),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }),
    });
    await expect(fetchPresignedFiles([png])).resolves.toEqual([]);
    expect(authStore.get().isLoggedIn).toBe(false);
  });
});
