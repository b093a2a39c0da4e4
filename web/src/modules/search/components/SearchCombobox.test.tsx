import type { Project, SearchHit } from '@app/contracts/chat';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { SearchCombobox } from './SearchCombobox';

const hit = (chatId: string, title: string, projectId: string | null): SearchHit => ({
  chat_id: chatId,
  conversation_title: title,
  project_id: projectId,
  message_id: null,
  sender: null,
  snippet: title,
  highlights: [{ start: 0, end: 5 }],
  title_highlights: [{ start: 0, end: 5 }],
  created_at: '2026-11-20T10:00:00.000Z',
});

describe('the conversation search field', () => {
  beforeEach(() => {
    signedIn({ csrfToken: 'c' });
  });
  afterEach(cleanup);

  it('names the project a result is in, and nothing for one in none', async () => {
    const project = { project_id: 'p-1', name: 'Kitchen remodel' } as Project;
    mockFetch({
      'GET /api/v1/projects/': json(200, [project]),
      'GET /api/v1/chats/search': json(200, {
        q: 'tiles',
        results: [hit('c-1', 'Tiles for the floor', 'p-1'), hit('c-2', 'Tiles in general', null)],
      }),
    });
    render(
      <MemoryRouter>
        <SearchCombobox label="Search conversations" placeholder="Search" />
      </MemoryRouter>,
      withQueryClient(),
    );
    await userEvent.type(screen.getByRole('combobox', { name: 'Search conversations' }), 'tiles');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Tiles for the floorin the project Kitchen remodel', 'Tiles in general']);
  });
});
