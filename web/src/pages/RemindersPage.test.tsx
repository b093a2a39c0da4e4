import type { Reminder } from '@app/contracts/chat';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetchMock';
import { signedIn } from '../test/session';
import { ReminderNotifications } from '../modules/reminders/components/ReminderNotifications';
import { RemindersPage } from './RemindersPage';

const reminder = (id: string, patch: Partial<Reminder> = {}): Reminder => ({
  reminder_id: id,
  text: `reminder ${id}`,
  due_at: '2026-11-27T09:00:00.000Z',
  time_zone: 'Europe/London',
  quiet_hours_ok: false,
  status: 'pending',
  source: 'portal',
  notified_at: null,
  delivered_at: null,
  late_by_seconds: null,
  text_status: null,
  seen: false,
  created_at: '2026-11-26T09:00:00.000Z',
  ...patch,
});
const SETTINGS = { time_zone: null, quiet_start_minute: 1320, quiet_end_minute: 480 };

function open(element = <RemindersPage />) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/reminders', element }], { initialEntries: ['/reminders'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the reminders page', () => {
  beforeEach(() => {
    signedIn();
  });

  it('lists pending and delivered reminders, and cancels a pending one', async () => {
    const api = mockFetch({
      'GET /api/v1/reminders/': json(200, [
        reminder('a', { text: 'call the dentist' }),
        reminder('b', { text: 'call Mum', status: 'delivered', text_status: 'opted_out', notified_at: '2026-11-26T10:00:00Z' }),
      ]),
      'GET /api/v1/reminders/settings': json(200, SETTINGS),
      'DELETE /api/v1/reminders/a': json(200, reminder('a', { status: 'cancelled' })),
    });
    open();
    const list = await screen.findByRole('list', { name: 'Your reminders' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/delivered, not texted: you said STOP/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the reminder: call the dentist' }));
    await waitFor(() => expect(api.called('DELETE /api/v1/reminders/a')).toHaveLength(1));
  });

  it('offers the browser time zone when none is set, and sets a reminder as an instant', async () => {
    const api = mockFetch({
      'GET /api/v1/reminders/': json(200, []),
      'GET /api/v1/reminders/settings': json(200, SETTINGS),
      'PUT /api/v1/reminders/settings': json(200, { ...SETTINGS, time_zone: 'UTC' }),
      'POST /api/v1/reminders/': json(201, reminder('n')),
    });
    open();
    expect(await screen.findByText(/Your time zone is not set yet/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /^Use / }));
    await waitFor(() => expect(api.called('PUT /api/v1/reminders/settings')).toHaveLength(1));
    await userEvent.type(screen.getByLabelText('Remind me to'), 'water the plants');
    const when = screen.getByLabelText('When') as HTMLInputElement;
    await userEvent.type(when, '2030-01-02T09:30');
    await userEvent.click(screen.getByRole('button', { name: 'Set reminder' }));
    await waitFor(() => expect(api.called('POST /api/v1/reminders/')).toHaveLength(1));
    const body = JSON.parse(api.called('POST /api/v1/reminders/')[0].body!);
    expect(body).toEqual({ text: 'water the plants', when: new Date('2030-01-02T09:30').toISOString() });
  });

  it('changes a pending reminder in place, sending only what changed', async () => {
    const api = mockFetch({
      'GET /api/v1/reminders/': json(200, [reminder('a', { text: 'call the dentist' })]),
      'GET /api/v1/reminders/settings': json(200, { ...SETTINGS, time_zone: 'Europe/London' }),
      'PATCH /api/v1/reminders/a': json(200, reminder('a', { text: 'call the dentist about Friday' })),
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Change the reminder: call the dentist' }));
    const form = screen.getByRole('form', { name: 'Change the reminder: call the dentist' });
    const text = within(form).getByLabelText('Remind me to');
    await userEvent.clear(text);
    await userEvent.type(text, 'call the dentist about Friday');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.called('PATCH /api/v1/reminders/a')).toHaveLength(1));
    expect(JSON.parse(api.called('PATCH /api/v1/reminders/a')[0].body!)).toEqual({ text: 'call the dentist about Friday' });
    await waitFor(() => expect(screen.queryByRole('form', { name: /Change the reminder/ })).toBeNull());
  });

  it('saves the quiet hours as minutes after midnight', async () => {
    const api = mockFetch({
      'GET /api/v1/reminders/': json(200, []),
      'GET /api/v1/reminders/settings': json(200, { ...SETTINGS, time_zone: 'Europe/London' }),
      'PUT /api/v1/reminders/settings': json(200, { ...SETTINGS, time_zone: 'Europe/London', quiet_start_minute: 1380 }),
    });
    open();
    const form = await screen.findByRole('form', { name: 'Quiet hours' });
    expect(within(form).getByRole('button', { name: 'Save quiet hours' }).hasAttribute('disabled')).toBe(true);
    const from = within(form).getByLabelText('Quiet from') as HTMLInputElement;
    await userEvent.clear(from);
    await userEvent.type(from, '23:00');
    await userEvent.click(within(form).getByRole('button', { name: 'Save quiet hours' }));
    await waitFor(() => expect(api.called('PUT /api/v1/reminders/settings')).toHaveLength(1));
    expect(JSON.parse(api.called('PUT /api/v1/reminders/settings')[0].body!)).toEqual({ quiet_start_minute: 1380, quiet_end_minute: 480 });
  });

  it('shows a reminder that came as a notification until it is dismissed', async () => {
    const api = mockFetch({
      'GET /api/v1/reminders/': json(200, [
        reminder('d', { text: 'take the pills', status: 'delivered', notified_at: '2026-11-26T10:00:00Z' }),
      ]),
      'POST /api/v1/reminders/d/seen': json(200, reminder('d', { seen: true })),
    });
    open(<ReminderNotifications />);
    const note = await screen.findByRole('status');
    expect(note.textContent).toContain('take the pills');
    await userEvent.click(within(note).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(api.called('POST /api/v1/reminders/d/seen')).toHaveLength(1));
  });
});
