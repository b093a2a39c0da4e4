import { vi } from 'vitest';

export type Call = { url: string; method: string; headers: Headers; body: string | null };
type Handler = (call: Call) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** Stubs fetch with routes "METHOD /path" (the query ignored); records every call. */
export function mockFetch(routes: Record<string, Handler | Response | (() => Response)>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, window.location.href);
    const call: Call = {
      url: url.pathname + url.search,
      method: (init.method ?? 'GET').toUpperCase(),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : null,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${url.pathname}`];
    if (!handler) return json(404, { detail: 'Not Found' });
    if (handler instanceof Response) return handler.clone();
    return (handler as Handler)(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    called: (key: string) => calls.filter((c) => `${c.method} ${new URL(c.url, window.location.href).pathname}` === key),
  };
}

import type { User } from '@app/contracts/auth';

export const guestUser: User = {
  user_id: 'u-guest',
  name: null,
  email: null,
  phone_number: null,
  is_anon: true,
  onboarding_config: { registered: false, onboarding_done: false },
  campaign_name: null,
  created_at: '2025-01-01T00:00:00Z',
};
export const registeredUser: User = {
  ...guestUser,
  user_id: 'u-ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone_number: '+14155550100',
  is_anon: false,
  onboarding_config: { registered: true, onboarding_done: true },
};
