import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { McpServersSection } from './McpServersSection';

const SERVER = {
  server_id: 's1',
  name: 'My tools',
  url: 'https://tools.example/mcp',
  auth: 'token',
  status: 'ready',
  authorization_url: null,
  tools: [
    { name: 'echo', description: 'Says it back', enabled: true, model_name: 'mcp_My_tools__echo' },
    { name: 'add', description: 'Adds', enabled: false, model_name: 'mcp_My_tools__add' },
  ],
  listed_at: '2026-11-26T10:00:00Z',
  created_at: '2026-11-26T10:00:00Z',
};

function show() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <McpServersSection />
    </QueryClientProvider>,
  );
}

describe('the MCP servers in settings', () => {
  beforeEach(() => {
    signedIn();
  });

  it("lists a server's tools with their switches, and switches one", async () => {
    const api = mockFetch({
      'GET /api/v1/mcp/servers': json(200, [SERVER]),
      'PATCH /api/v1/mcp/servers/s1': json(200, SERVER),
    });
    show();
    const server = await screen.findByRole('region', { name: 'MCP server My tools' });
    const boxes = within(server).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((b) => b.checked)).toEqual([true, false]);
    await userEvent.click(boxes[1]);
    await waitFor(() => expect(api.called('PATCH /api/v1/mcp/servers/s1')).toHaveLength(1));
    expect(JSON.parse(api.called('PATCH /api/v1/mcp/servers/s1')[0].body!)).toEqual({ tools: { add: true } });
  });

  it('adds a server with its token, and shows why one was refused', async () => {
    const api = mockFetch({
      'GET /api/v1/mcp/servers': json(200, []),
      'POST /api/v1/mcp/servers': json(400, { detail: 'That server cannot be used: 10.0.0.1 is not a public address.' }),
    });
    show();
    await userEvent.type(screen.getByLabelText('Name'), 'Inside');
    await userEvent.type(screen.getByLabelText('Server URL'), 'http://10.0.0.1/mcp');
    await userEvent.type(screen.getByLabelText('Access token (optional)'), 'secret');
    await userEvent.click(screen.getByRole('button', { name: 'Add server' }));
    expect((await screen.findByRole('alert')).textContent).toContain('10.0.0.1 is not a public address');
    expect(JSON.parse(api.called('POST /api/v1/mcp/servers')[0].body!)).toEqual({
      name: 'Inside',
      url: 'http://10.0.0.1/mcp',
      access_token: 'secret',
    });
  });
});
