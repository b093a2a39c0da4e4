import type { Import } from '@app/contracts/chat';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { useConversations } from '../../chat/hooks/chatQueries';
import { useImport } from './useImports';

const running: Import = {
  import_id: 'b0000000-0000-4000-8000-000000000001',
  status: 'running',
  source: 'chatgpt',
  filename: 'export.zip',
  learn_memories: false,
  conversations_total: 100,
  conversations_done: 0,
  conversations_imported: 0,
  conversations_existing: 0,
  messages_imported: 0,
  attachments_imported: 0,
  skipped: [],
  skipped_total: 0,
  error: null,
  created_at: '2026-11-28T10:00:00.000Z',
  finished_at: null,
};

describe('following an import', () => {
  beforeEach(() => {
    signedIn({ csrfToken: 'c' });
  });
  afterEach(cleanup);

  it('reads the conversation list again while the import writes to it, not before it has written any', async () => {
    let state = running;
    const api = mockFetch({
      'GET /api/v1/chats/': () => json(200, []),
      [`GET /api/v1/imports/${running.import_id}`]: () => json(200, state),
    });
    renderHook(() => {
      useConversations();
      return useImport(running.import_id);
    }, withQueryClient());
    await waitFor(() => expect(api.called(`GET /api/v1/imports/${running.import_id}`).length).toBeGreaterThan(0));
    await waitFor(() => expect(api.called('GET /api/v1/chats/')).toHaveLength(1));
    state = { ...running, conversations_done: 3, conversations_imported: 3 };
    await waitFor(() => expect(api.called('GET /api/v1/chats/').length).toBeGreaterThanOrEqual(2), { timeout: 8_000 });
  });
});
