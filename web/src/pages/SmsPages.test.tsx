import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { authStore } from '../modules/auth/state/authStore';
import { smsGroup, smsService } from '../test/builders';
import { json, mockFetch, type Call } from '../test/fetchMock';
import { withQueryClient } from '../test/queryClient';
import { signedIn } from '../test/session';
import { DevPhonePage } from './DevPhonePage';
import { GroupInvitePage } from './GroupInvitePage';
import { GroupSearchPage } from './GroupSearchPage';
import { TextServicePage } from './TextServicePage';

const service = smsService();
const group = smsGroup({
  members: [
    { label: 'Ada Lovelace', is_you: true },
    { label: '+1 ••• ••• 0142', is_you: false },
  ],
});

function show(path: string, element: ReactNode, pattern: string) {
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '/404', element: <p>not found page</p> },
      { path: '/settings', element: <p>settings page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />, withQueryClient());
  return router;
}

beforeEach(() => {
  signedIn({ csrfToken: 'c' });
});

describe('/text', () => {
  it('shows the number to text, the allowance and the segments', async () => {
    mockFetch({ 'GET /api/v1/sms/service': json(200, service) });
    show('/text', <TextServicePage />, '/text');
    expect(await screen.findByRole('link', { name: '+1 415 555 0199' })).toHaveProperty('href', 'sms:+14155550199');
    expect(screen.getByText(/Up to 200 texts a month per account/)).toBeTruthy();
    expect(screen.getByText(/at most 4 texts/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Stop, help and start' })).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Privacy' }))
        .getByRole('link', { name: 'Privacy Policy' })
        .getAttribute('href'),
    ).toBe('/privacy');
    expect(screen.queryByRole('link', { name: 'development phone' })).toBeNull();
  });

  it('says when the service is not set up, and links the development phone in development', async () => {
    mockFetch({ 'GET /api/v1/sms/service': json(200, { ...service, phone_number: null, dev_phone: true }) });
    show('/text', <TextServicePage />, '/text');
    expect(await screen.findByText(/not set up on this server/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'development phone' }).getAttribute('href')).toBe('/dev/phone');
  });
});

describe('/group-search/invite/{id}', () => {
  const path = '/group-search/invite/inv_abcdefghijklmnop';
  const pattern = '/group-search/invite/:groupChannelInviteLinkId';

  it('joins with a locally formatted number sent as E.164', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null, user: null });
    const api = mockFetch({
      'GET /api/v1/sms/service': json(200, service),
      'GET /api/v1/sms/group-invites/inv_abcdefghijklmnop': json(200, {
        group_name: 'Hiking club',
        member_count: 3,
        expires_at: '2025-10-01T00:00:00Z',
      }),
      'POST /api/v1/sms/group-invites/inv_abcdefghijklmnop/join': json(202, { status: 'confirmation_sent' }),
    });
    show(path, <GroupInvitePage />, pattern);
    expect(await screen.findByRole('heading', { name: 'Join “Hiking club”' })).toBeTruthy();
    expect(screen.getByText(/3 members/)).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter your mobile number.');
    expect(screen.getByLabelText('Mobile number').getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText('Mobile number'), '(415) 555-0123');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect((await screen.findByRole('status')).textContent).toContain('We texted +1 415 555 0123. Reply YES to join.');
    const join = api.called('POST /api/v1/sms/group-invites/inv_abcdefghijklmnop/join');
    expect(join.map((c: Call) => c.body)).toEqual(['{"phone_number":"+14155550123"}']);
  });

  it('shows the server’s reason for an expired or revoked link', async () => {
    mockFetch({
      'GET /api/v1/sms/group-invites/inv_abcdefghijklmnop': json(404, { detail: 'This invite link has expired or was revoked.' }),
    });
    show(path, <GroupInvitePage />, pattern);
    expect(await screen.findByText('This invite link has expired or was revoked.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'This invitation cannot be used' })).toBeTruthy();
  });

  it('says API Error: {status} when a refusal has no detail', async () => {
    mockFetch({
      'GET /api/v1/sms/group-invites/inv_abcdefghijklmnop': json(200, {
        group_name: 'Hiking club',
        member_count: 1,
        expires_at: '2025-10-01T00:00:00Z',
      }),
      'POST /api/v1/sms/group-invites/inv_abcdefghijklmnop/join': new Response('', { status: 503 }),
    });
    show(path, <GroupInvitePage />, pattern);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Mobile number'), '+44 7700 900123');
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect((await screen.findByRole('alert')).textContent).toBe('API Error: 503');
  });
});

describe('/group-search/{channelUrl}', () => {
  const pattern = '/group-search/:channelUrl';
  const message = (id: string, body: string, highlights: { start: number; end: number }[] = [], is_assistant = false) => ({
    message_id: id,
    sender: is_assistant ? 'Assistant' : 'Ada Lovelace',
    is_assistant,
    body,
    created_at: '2025-09-02T10:00:00Z',
    highlights,
  });

  it('sends a non-member to the not-found page', async () => {
    mockFetch({ 'GET /api/v1/sms/groups/secret-group': json(404, { detail: 'Not Found' }) });
    show('/group-search/secret-group', <GroupSearchPage />, pattern);
    expect(await screen.findByText('not found page')).toBeTruthy();
  });

  it('shows the members and the latest messages, then searches once typing settles, with the matches marked', async () => {
    const api = mockFetch({
      'GET /api/v1/sms/groups/hiking-club': json(200, group),
      'GET /api/v1/sms/groups': json(200, { groups: [group] }),
      'GET /api/v1/sms/groups/hiking-club/messages': (call) => {
        const q = new URL(call.url, 'http://x').searchParams.get('q');
        if (!q) return json(200, { results: [message('m2', 'See you at the trailhead'), message('m1', 'Who brings the map?')] });
        if (q === 'map')
          return json(200, {
            results: [
              message('m1', 'Who brings the map? The map!', [
                { start: 15, end: 18 },
                { start: 24, end: 27 },
              ]),
            ],
          });
        return json(200, { results: [] });
      },
    });
    show('/group-search/hiking-club', <GroupSearchPage />, pattern);
    expect(await screen.findByRole('heading', { level: 1, name: 'Hiking club' })).toBeTruthy();
    expect(screen.getByText('Ada Lovelace (you)')).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['See you at the trailhead', 'Who brings the map?']);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Search this group’s messages'), 'map');
    await waitFor(() => expect(document.querySelectorAll('mark')).toHaveLength(2));
    expect([...document.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['map', 'map']);
    expect(screen.getByText('1 message matches “map”')).toBeTruthy();
    // Typing is debounced: one request for the whole word, none per letter.
    const asked = api.called('GET /api/v1/sms/groups/hiking-club/messages').map((c) => new URL(c.url, 'http://x').searchParams.get('q'));
    expect(asked).toEqual(['', 'map']);

    await user.clear(screen.getByLabelText('Search this group’s messages'));
    await user.type(screen.getByLabelText('Search this group’s messages'), 'kayak');
    expect(await screen.findByText('No messages match “kayak”. Try another word.')).toBeTruthy();
  });

  it('says so when the group has no messages, and shows a failed search’s reason', async () => {
    mockFetch({
      'GET /api/v1/sms/groups/hiking-club': json(200, group),
      'GET /api/v1/sms/groups': json(200, { groups: [group] }),
      'GET /api/v1/sms/groups/hiking-club/messages': (call) =>
        new URL(call.url, 'http://x').searchParams.get('q') ? json(500, {}) : json(200, { results: [] }),
    });
    show('/group-search/hiking-club', <GroupSearchPage />, pattern);
    expect(await screen.findByText(/No messages in this group yet/)).toBeTruthy();
    await userEvent.setup().type(screen.getByLabelText('Search this group’s messages'), 'x');
    expect((await screen.findByText('API Error: 500')).getAttribute('role')).toBe('alert');
  });

  it('leaves the group after asking twice, and goes back to the settings', async () => {
    const api = mockFetch({
      'GET /api/v1/sms/groups/hiking-club': json(200, group),
      'GET /api/v1/sms/groups': json(200, { groups: [group] }),
      'GET /api/v1/sms/groups/hiking-club/messages': json(200, { results: [] }),
      'DELETE /api/v1/sms/groups/hiking-club/membership': new Response(null, { status: 204 }),
    });
    const router = show('/group-search/hiking-club', <GroupSearchPage />, pattern);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Leave “Hiking club”/ }));
    expect(api.called('DELETE /api/v1/sms/groups/hiking-club/membership')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Leave the group' }));
    expect(await screen.findByText('settings page')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/settings');
    expect(api.called('DELETE /api/v1/sms/groups/hiking-club/membership')).toHaveLength(1);
  });

  it('creates an invite link to copy, and revokes it', async () => {
    const api = mockFetch({
      'GET /api/v1/sms/groups/hiking-club': json(200, group),
      'GET /api/v1/sms/groups': json(200, { groups: [group] }),
      'GET /api/v1/sms/groups/hiking-club/messages': json(200, { results: [] }),
      'POST /api/v1/sms/groups/hiking-club/invites': json(201, {
        invite_id: 'inv_abcdefghijklmnop',
        url: '/group-search/invite/inv_abcdefghijklmnop',
        expires_at: '2025-10-01T00:00:00Z',
      }),
      'DELETE /api/v1/sms/groups/hiking-club/invites/inv_abcdefghijklmnop': new Response(null, { status: 204 }),
    });
    show('/group-search/hiking-club', <GroupSearchPage />, pattern);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create invite link' }));
    const field = await screen.findByLabelText('Invite link');
    expect((field as HTMLInputElement).value).toBe(`${window.location.origin}/group-search/invite/inv_abcdefghijklmnop`);
    expect(screen.getByRole('button', { name: 'Copy invite link' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Revoked: this link no longer works.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy invite link' })).toBeNull();
    expect(api.called('DELETE /api/v1/sms/groups/hiking-club/invites/inv_abcdefghijklmnop')).toHaveLength(1);
  });
});

describe('/dev/phone', () => {
  it('is the not-found page unless the server has the development phone', async () => {
    mockFetch({ 'GET /api/v1/sms/service': json(200, service) });
    show('/dev/phone', <DevPhonePage />, '/dev/phone');
    expect(await screen.findByText('not found page')).toBeTruthy();
  });

  it('texts as a fictional number kept for the session and shows the reply once it arrives', async () => {
    let replies: unknown[] = [];
    const api = mockFetch({
      'GET /api/v1/sms/service': json(200, { ...service, dev_phone: true }),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
      'POST /api/v1/dev/sms/inbound': json(202, { message_sid: 'SM1' }),
      'GET /api/v1/dev/sms/messages': () => json(200, { enabled: true, messages: replies }),
    });
    show('/dev/phone', <DevPhonePage />, '/dev/phone');
    const numberField = (await screen.findByLabelText('Play the number')) as HTMLInputElement;
    expect(numberField.value).toMatch(/^\+1\d{3}55501\d{2}$/);
    expect(sessionStorage.getItem('devPhoneNumber')).toBe(numberField.value);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Text message'), 'Hello there{Enter}');
    await waitFor(() => expect(api.called('POST /api/v1/dev/sms/inbound')).toHaveLength(1));
    expect(JSON.parse(api.called('POST /api/v1/dev/sms/inbound')[0].body!)).toEqual({
      from: numberField.value,
      body: 'Hello there',
      to: '+14155550199',
    });
    expect(await screen.findByText('Waiting for the reply…')).toBeTruthy();
    replies = [
      {
        message_id: 'r2',
        to: numberField.value,
        body: 'part two',
        purpose: 'reply',
        provider: 'console',
        status: 'sent',
        created_at: new Date(Date.now() + 2).toISOString(),
      },
      {
        message_id: 'r1',
        to: numberField.value,
        body: 'Hi! part one',
        purpose: 'reply',
        provider: 'console',
        status: 'sent',
        created_at: new Date(Date.now() + 1).toISOString(),
      },
    ];
    const log = screen.getByRole('log', { name: 'Messages' });
    await waitFor(() => expect(within(log).getAllByText(/part/)).toHaveLength(2), { timeout: 3000 });
    expect([...log.querySelectorAll('.sms-bubble__body')].map((b) => b.textContent)).toEqual(['Hello there', 'Hi! part one', 'part two']);
    expect(screen.queryByText('Waiting for the reply…')).toBeNull();
  });

  it("counts a draft's segments with the product's counter: typography in GSM-7, an emoji in UCS-2", async () => {
    mockFetch({
      'GET /api/v1/sms/service': json(200, { ...service, dev_phone: true }),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
      'GET /api/v1/dev/sms/messages': json(200, { enabled: true, messages: [] }),
    });
    show('/dev/phone', <DevPhonePage />, '/dev/phone');
    const message = await screen.findByLabelText('Text message');
    expect(screen.getByText(/Replies come back in at most 4 texts/)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(message, 'It’s “fine”…');
    expect(screen.getByText('14 characters · 1 text (GSM-7)')).toBeTruthy();
    await user.type(message, ' 😀');
    expect(screen.getByText('17 UCS-2 units · 1 text (UCS-2)')).toBeTruthy();
  });

  it('refuses a malformed destination and shows a failed send', async () => {
    mockFetch({
      'GET /api/v1/sms/service': json(200, { ...service, dev_phone: true }),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
      'POST /api/v1/dev/sms/inbound': json(404, { detail: 'Not Found' }),
      'GET /api/v1/dev/sms/messages': json(200, { enabled: true, messages: [] }),
    });
    show('/dev/phone', <DevPhonePage />, '/dev/phone');
    const user = userEvent.setup();
    const to = await screen.findByLabelText('Text to');
    await user.clear(to);
    await user.type(to, 'abc');
    await user.type(screen.getByLabelText('Text message'), 'hi{Enter}');
    expect((await screen.findByRole('alert')).textContent).toMatch(/Use digits only/);
    await user.clear(to);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not Found');
  });
});
