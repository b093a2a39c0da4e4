import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { smsGroup, smsService } from '../../../test/builders';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { TextMessagesSection } from './TextMessagesSection';

const me = { phone_number: '+14155550100', opted_out: false, period: '2025-09', texts_used: 42, monthly_allowance: 200 };
const service = smsService();
const group = smsGroup();

function show() {
  render(
    <MemoryRouter>
      <TextMessagesSection />
    </MemoryRouter>,
    withQueryClient(),
  );
}

describe('settings, Text messages', () => {
  beforeEach(() => {
    signedIn({ csrfToken: 'c' });
  });

  it('shows the number, that replies are on, the usage bar and the groups; a new group joins the list', async () => {
    const api = mockFetch({
      'GET /api/v1/sms/me': json(200, me),
      'GET /api/v1/sms/service': json(200, service),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
      'POST /api/v1/sms/groups': json(201, group),
    });
    show();
    expect(await screen.findByText('+1 415 555 0100')).toBeTruthy();
    expect(screen.getByText('On')).toBeTruthy();
    expect(screen.getByText(/at any time and the assistant stops replying/).textContent).toContain('STOP to +1 415 555 0199');
    expect(screen.getByRole('progressbar', { name: '42 of 200 texts used in September 2025' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'How texting the assistant works' }).getAttribute('href')).toBe('/text');
    expect(await screen.findByText('You are not in any group text yet.')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    expect(screen.getByRole('alert').textContent).toBe('Give the group a name.');
    await user.type(screen.getByLabelText('New group name'), '  Hiking club ');
    await user.click(screen.getByRole('button', { name: 'Create group' }));
    const list = await screen.findByRole('list', { name: 'Your group texts' });
    expect(within(list).getByRole('link', { name: 'Hiking club' }).getAttribute('href')).toBe('/group-search/hiking-club');
    expect(api.called('POST /api/v1/sms/groups')[0].body).toBe('{"name":"Hiking club"}');
  });

  it('explains START when the number texted STOP, and hides group creation without a number', async () => {
    mockFetch({
      'GET /api/v1/sms/me': json(200, { ...me, opted_out: true }),
      'GET /api/v1/sms/service': json(200, service),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
    });
    show();
    expect(await screen.findByText('Stopped')).toBeTruthy();
    expect(screen.getByText(/You texted STOP/).textContent).toContain('Text START to +1 415 555 0199 to turn replies back on.');

    mockFetch({
      'GET /api/v1/sms/me': json(200, { ...me, phone_number: null }),
      'GET /api/v1/sms/service': json(200, service),
      'GET /api/v1/sms/groups': json(200, { groups: [] }),
    });
    cleanup();
    show();
    expect(await screen.findByText('No mobile number on your account')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Create group' })).toBeNull();
  });

  it('shows a refusal’s detail with a way to try again', async () => {
    mockFetch({ 'GET /api/v1/sms/me': json(503, { detail: 'The text service is unavailable.' }) });
    show();
    expect((await screen.findByRole('alert')).textContent).toContain('The text service is unavailable.');
    mockFetch({ 'GET /api/v1/sms/me': json(200, me), 'GET /api/v1/sms/groups': json(200, { groups: [] }) });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('progressbar')).toBeTruthy());
  });
});
