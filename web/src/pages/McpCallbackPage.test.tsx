import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetchMock';
import { signedIn } from '../test/session';
import { McpCallbackPage } from './McpCallbackPage';

function open(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/settings/mcp-callback', element: <McpCallbackPage /> },
      { path: '/settings', element: <p>settings</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("an MCP server's OAuth callback", () => {
  beforeEach(() => {
    signedIn();
  });

  it('finishes the authorisation of the server the state names, then goes back to settings', async () => {
    const api = mockFetch({ 'POST /api/v1/mcp/servers/s1/oauth': json(200, {}) });
    const router = open('/settings/mcp-callback?code=abc&state=s1.nonce');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(JSON.parse(api.called('POST /api/v1/mcp/servers/s1/oauth')[0].body!)).toEqual({ code: 'abc', state: 's1.nonce' });
  });

  it('says why when the server refused the code', async () => {
    mockFetch({ 'POST /api/v1/mcp/servers/s1/oauth': json(400, { detail: 'The authorisation failed: invalid_grant' }) });
    open('/settings/mcp-callback?code=abc&state=s1.nonce');
    expect((await screen.findByRole('alert')).textContent).toContain('invalid_grant');
  });
});
