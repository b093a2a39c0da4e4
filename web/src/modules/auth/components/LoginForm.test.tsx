import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { optedOutOfTextsDetail } from '@app/contracts/sms';
import { json, mockFetch } from '../../../test/fetchMock';
import { leavePage } from '../../common/utils/leavePage';
import { authStore } from '../state/authStore';
import { LoginForm } from './LoginForm';

vi.mock('../../common/utils/leavePage', () => ({ leavePage: vi.fn() }));
// The popup script cannot load here, as when Google's script is blocked: the redirect flow is used.
vi.mock('../utils/google', () => ({ requestGoogleCode: vi.fn(async () => null) }));

const NUMBER = '+14155550100';
const sentTo = (phoneNumber: string) =>
  sessionStorage.setItem('login_phone_number', JSON.stringify({ phoneNumber, campaignName: null, codeSent: true }));

function at(path: string) {
  const router = createMemoryRouter([{ path: '/login', element: <LoginForm context={{}} next={null} /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

function api(routes: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/v1/auth/csrf-token': () => json(200, { csrf_token: 'csrf' }, { 'x-csrf-token': 'csrf' }),
    'POST /api/v1/auth/login/phone_number': () => json(200, { sent: true, expires_in_seconds: 600 }),
    ...routes,
  });
}

/** The URL the browser was sent to, and the nonce in session storage. */
function lastNavigation() {
  const calls = vi.mocked(leavePage).mock.calls;
  return new URL(calls[calls.length - 1][0], window.location.href);
}

describe('the sign-in form', () => {
  beforeEach(() => {
    authStore.reset();
    authStore.set({ isLoading: false });
    vi.mocked(leavePage).mockClear();
  });

  it('comes back from a wrong code to the code step for the same number: the error under the field, focused, the query gone', async () => {
    api();
    sentTo(NUMBER);
    const router = at(`/login?next=%2Fchat&step=code&error=${encodeURIComponent('That code is not right. 4 tries left.')}`);
    const code = await screen.findByLabelText('Code');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('That code is not right. 4 tries left.');
    expect(code.getAttribute('aria-describedby')).toBe(alert.id);
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(code);
    expect(screen.getByRole('status').textContent).toContain(NUMBER);
    // Only error and step leave the address (a reload shows a clean form); next stays.
    await waitFor(() => expect(router.state.location.search).toBe('?next=%2Fchat'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByLabelText('Code')).toBe(code);

    // The right code goes to the callback for the same number, with this tab's nonce.
    const user = userEvent.setup();
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const url = lastNavigation();
    expect(url.pathname).toBe('/api/v1/auth/callback/phone_number');
    expect(url.searchParams.get('phone_number')).toBe(NUMBER);
    expect(url.searchParams.get('code')).toBe('123456');
    expect(url.searchParams.get('login_state')).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(url.searchParams.get('login_state')).toBe(sessionStorage.getItem('login_state'));
  });

  it('comes back from a used-up code (`?error=` alone) on the number step, the number kept, with a new code to ask for', async () => {
    const calls = api();
    sentTo(NUMBER);
    const router = at(`/login?error=${encodeURIComponent('This code was used up by too many wrong tries. Ask for a new one.')}`);
    const phone = (await screen.findByLabelText(/Mobile number/)) as HTMLInputElement;
    expect(phone.value).toBe(NUMBER);
    expect(screen.getByRole('alert').textContent).toBe('This code was used up by too many wrong tries. Ask for a new one.');
    expect(phone.getAttribute('aria-describedby')?.split(' ')).toContain(screen.getByRole('alert').id);
    expect(document.activeElement).toBe(phone);
    await waitFor(() => expect(router.state.location.search).toBe(''));

    await userEvent.setup().click(screen.getByRole('button', { name: 'Text me a new code' }));
    await screen.findByLabelText('Code');
    expect(JSON.parse(calls.called('POST /api/v1/auth/login/phone_number')[0].body!)).toMatchObject({ phone_number: NUMBER });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stays on the code step across a reload, without the error; after `?error=` the number step stays', async () => {
    api();
    sentTo(NUMBER);
    at('/login');
    await screen.findByLabelText('Code');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(`Enter the code we texted to ${NUMBER}.`);
    cleanup();

    at('/login?error=This%20code%20has%20expired.%20Ask%20for%20a%20new%20one.');
    await screen.findByLabelText(/Mobile number/);
    cleanup();
    at('/login');
    expect(((await screen.findByLabelText(/Mobile number/)) as HTMLInputElement).value).toBe(NUMBER);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not take `step=code` from a link when this tab sent no code', async () => {
    api();
    at('/login?step=code&error=That%20code%20is%20not%20right.');
    const phone = (await screen.findByLabelText(/Mobile number/)) as HTMLInputElement;
    expect(phone.value).toBe('');
    expect(screen.queryByLabelText('Code')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('That code is not right.');
  });

  it('shows no field names: not from the server’s answer, not from the address', async () => {
    api({
      'POST /api/v1/auth/login/phone_number': () =>
        json(400, { detail: 'phone_number: enter a valid mobile number in international form, like +14155550123' }),
    });
    const user = userEvent.setup();
    at('/login');
    await user.type(await screen.findByLabelText(/Mobile number/), '12345');
    await user.click(screen.getByRole('button', { name: 'Text me a code' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Enter a valid mobile number in international form, like +14155550123');
    expect(document.activeElement).toBe(screen.getByLabelText(/Mobile number/));
    expect(sessionStorage.getItem('login_phone_number')).toBeNull();
  });

  it('keeps the number a code was sent to (normalised), offers a new code and a different number', async () => {
    const calls = api();
    const user = userEvent.setup();
    at('/login');
    await user.type(await screen.findByLabelText(/Mobile number/), ' +1 (415) 555-0100 ');
    await user.click(screen.getByRole('button', { name: 'Text me a code' }));
    const code = await screen.findByLabelText('Code');
    expect(document.activeElement).toBe(code);
    expect(JSON.parse(sessionStorage.getItem('login_phone_number')!)).toEqual({ phoneNumber: NUMBER, campaignName: null, codeSent: true });
    expect(JSON.parse(calls.called('POST /api/v1/auth/login/phone_number')[0].body!).phone_number).toBe(NUMBER);

    await user.click(screen.getByRole('button', { name: 'Send a new code' }));
    await waitFor(() => expect(calls.called('POST /api/v1/auth/login/phone_number')).toHaveLength(2));
    expect(JSON.parse(calls.called('POST /api/v1/auth/login/phone_number')[1].body!).phone_number).toBe(NUMBER);

    await user.click(screen.getByRole('button', { name: 'Use a different number' }));
    const phone = screen.getByLabelText(/Mobile number/) as HTMLInputElement;
    expect(document.activeElement).toBe(phone);
    expect(phone.value).toBe(' +1 (415) 555-0100 ');
  });

  it('says a number that opted out of texts gets no code, and how to opt back in (issue 21.4)', async () => {
    const detail = optedOutOfTextsDetail('+15005550006');
    api({ 'POST /api/v1/auth/login/phone_number': () => json(409, { detail }) });
    const user = userEvent.setup();
    at('/login');
    await user.type(await screen.findByLabelText(/Mobile number/), NUMBER);
    await user.click(screen.getByRole('button', { name: 'Text me a code' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(detail);
    expect(alert.textContent).toMatch(/opted out of texts.*text START to \+15005550006/);
    expect(screen.queryByLabelText('Code')).toBeNull();
    expect(sessionStorage.getItem('login_phone_number')).toBeNull();
  });

  it('shows a refused new code under the code field, in plain words', async () => {
    api({
      'POST /api/v1/auth/login/phone_number': () =>
        json(429, { detail: 'Too many codes were requested for this number. Try again in 10 minutes.' }),
    });
    sentTo(NUMBER);
    at('/login?step=code&error=x');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send a new code' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe('Too many codes were requested for this number. Try again in 10 minutes.'),
    );
    expect(screen.getByLabelText('Code').getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
  });

  it('links the development inbox of the number the code went to (the inbox shows one number only)', async () => {
    const calls = api({ 'GET /api/v1/dev/sms/messages': () => json(200, { messages: [] }) });
    sentTo(NUMBER);
    at('/login');
    const link = await screen.findByRole('link', { name: 'SMS inbox' });
    expect(link.getAttribute('href')).toBe('/api/v1/dev/sms?to=%2B14155550100');
    expect(calls.called('GET /api/v1/dev/sms/messages')[0].url).toBe('/api/v1/dev/sms/messages?to=%2B14155550100');
  });

  it('starts Google’s redirect flow with a fresh nonce', async () => {
    api({ 'GET /api/v1/auth/google/config': () => json(200, { client_id: 'google-client' }) });
    at('/login');
    await userEvent.setup().click(await screen.findByRole('button', { name: /Continue with Google/ }));
    await waitFor(() => expect(leavePage).toHaveBeenCalled());
    const url = lastNavigation();
    expect(url.pathname).toBe('/api/v1/auth/google/redirect');
    expect(url.searchParams.get('login_state')).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(url.searchParams.get('login_state')).toBe(sessionStorage.getItem('login_state'));
  });
});
