import type { Conversation, Project } from '@app/contracts/chat';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { ConversationList } from '../../chat/components/ConversationList';
import { DeleteProjectDialog } from './DeleteProjectDialog';

const conversation = (id: string, title: string, projectId: string | null = null): Conversation => ({
  chat_id: id,
  conversation_title: title,
  last_message_timestamp: null,
  last_active_message_id: null,
  is_commercial: false,
  temporary: false,
  expires_at: null,
  project_id: projectId,
  created_at: new Date().toISOString(),
});
const project = (id: string, name: string, count = 0): Project => ({
  project_id: id,
  name,
  instructions: '',
  files: [],
  conversation_count: count,
  created_at: '2026-11-26T09:00:00.000Z',
  updated_at: '2026-11-26T09:00:00.000Z',
});

function open(element: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/chat', element }], { initialEntries: ['/chat'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('projects in the sidebar', () => {
  beforeEach(() => {
    signedIn();
  });

  it("lists a project's conversations under it (collapsed until asked), the others below by date", async () => {
    mockFetch({
      'GET /api/v1/chats/': json(200, [conversation('c1', 'Tiles', 'p1'), conversation('c2', 'Holidays')]),
      'GET /api/v1/projects/': json(200, [project('p1', 'Kitchen', 1)]),
    });
    open(<ConversationList />);
    const projects = await screen.findByRole('region', { name: 'Projects' });
    const toggle = await within(projects).findByRole('button', { name: 'Expand Kitchen' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(projects).queryByRole('link', { name: 'Tiles' })).toBeNull();
    await userEvent.click(toggle);
    expect(within(projects).getByRole('link', { name: 'Tiles' })).toBeTruthy();
    const today = screen.getByRole('region', { name: 'Today' });
    expect(within(today).getByRole('link', { name: 'Holidays' })).toBeTruthy();
    expect(within(today).queryByRole('link', { name: 'Tiles' })).toBeNull();
  });

  it('moves a conversation into a project with "Move to project…", by keyboard', async () => {
    const api = mockFetch({
      'GET /api/v1/chats/': json(200, [conversation('c2', 'Holidays')]),
      'GET /api/v1/projects/': json(200, [project('p1', 'Kitchen')]),
      'PATCH /api/v1/chats/c2': json(200, conversation('c2', 'Holidays', 'p1')),
    });
    open(<ConversationList />);
    await userEvent.click(await screen.findByRole('button', { name: 'Move Holidays to a project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to project' });
    expect((within(dialog).getByRole('radio', { name: 'No project' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Kitchen' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() => expect(api.called('PATCH /api/v1/chats/c2')).toHaveLength(1));
    expect(JSON.parse(api.called('PATCH /api/v1/chats/c2')[0].body!)).toEqual({ project_id: 'p1' });
    await userEvent.click(await screen.findByRole('button', { name: 'Expand Kitchen' }));
    expect(within(screen.getByRole('region', { name: 'Projects' })).getByRole('link', { name: 'Holidays' })).toBeTruthy();
  });

  it('asks what becomes of the conversations before deleting a project, keeping them unless told otherwise', async () => {
    const api = mockFetch({
      'DELETE /api/v1/projects/p1': json(200, { project_id: 'p1', conversations: 'delete', chat_ids: ['c1', 'c3'] }),
    });
    let deleted: unknown = null;
    open(<DeleteProjectDialog project={project('p1', 'Kitchen', 2)} onClose={() => undefined} onDeleted={(a) => (deleted = a)} />);
    const dialog = await screen.findByRole('dialog', { name: 'Delete project?' });
    expect(within(dialog).getByText('What should happen to its 2 conversations?')).toBeTruthy();
    expect((within(dialog).getByRole('radio', { name: /Keep them/ }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: /Delete them too/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete project' }));
    await waitFor(() => expect(api.called('DELETE /api/v1/projects/p1')).toHaveLength(1));
    expect(new URL(api.called('DELETE /api/v1/projects/p1')[0].url, location.href).searchParams.get('conversations')).toBe('delete');
    await waitFor(() => expect(deleted).toMatchObject({ conversations: 'delete', chat_ids: ['c1', 'c3'] }));
  });
});
