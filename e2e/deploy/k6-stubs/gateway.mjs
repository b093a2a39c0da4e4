// A fake of the gateway's HTTP surface the k6 journey uses, with its per-address guest limit and
// the chat's per-guest daily message limit, so the scenarios' use of guests can be measured.
export const gateway = {
  guestsPerAddress: 60,
  messagesPerGuest: 50,
  guests: new Map(),
  guestsCreated: 0,
  guestRefusals: 0,
  requests: 0,
  chats: new Map(),
};

const response = (status, body, headers = {}) => {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    status,
    body: text,
    headers: { 'Content-Type': typeof body === 'string' ? 'text/event-stream' : 'application/json', ...headers },
    timings: { waiting: 1, duration: 2 },
    json: () => JSON.parse(text),
  };
};

export function handle(method, url, params = {}) {
  gateway.requests += 1;
  const path = url.replace(/^https?:\/\/[^/]+/, '');
  const token = (params.headers?.Authorization ?? '').replace(/^Bearer /, '');
  const guest = gateway.guests.get(token);
  if (path === '/readyz') return response(200, { status: 'ready', checks: {} });
  if (path === '/healthz') return response(200, { status: 'ok' });
  if (path === '/api/v1/version/commit') return response(200, { commit: 'abc123' }, { 'Cache-Control': 'no-store' });
  if (path === '/api/docs/openapi.json') return response(200, { openapi: '3.1.0', paths: { '/api/v1/version/commit': {} } });
  if (path === '/api/v1/auth/csrf-token') return response(200, { csrf_token: 'csrf' }, { 'X-Csrf-Token': 'csrf' });
  if (path === '/api/v1/auth/anon' && method === 'POST') {
    if (gateway.guestsCreated >= gateway.guestsPerAddress) {
      gateway.guestRefusals += 1;
      return response(429, { detail: 'Too many new guests from your network. Try again later.' }, { 'Retry-After': '3600' });
    }
    gateway.guestsCreated += 1;
    const created = `guest-${gateway.guestsCreated}`;
    gateway.guests.set(created, { messages: 0 });
    return response(200, { token: created }, { 'X-User-Session-Id': `session-${created}` });
  }
  if (!guest) return response(401, { detail: 'Not authenticated' });
  if (path === '/api/v1/auth/me') return response(200, { user_id: token, is_anon: true });
  const chats = gateway.chats.get(token) ?? [];
  gateway.chats.set(token, chats);
  if (path === '/api/v1/chats/' && method === 'GET')
    return response(
      200,
      chats.map((chat_id) => ({ chat_id })),
    );
  if (path === '/api/v1/chats/' && method === 'POST') {
    const chatId = `${token}-chat-${chats.length + 1}`;
    chats.push(chatId);
    return response(201, { chat_id: chatId });
  }
  if (/^\/api\/v1\/chats\/[^/]+\/messages$/.test(path) && method === 'POST') {
    if (guest.messages >= gateway.messagesPerGuest) return response(429, { detail: 'Daily limit reached' });
    guest.messages += 1;
    const stream = ['user_message', 'text', 'assistant_message', 'done']
      .map(
        (event) =>
          `event: ${event}\ndata: ${JSON.stringify(event.endsWith('message') ? { message_id: `${event}-${guest.messages}` } : {})}\n\n`,
      )
      .join('');
    return response(200, stream);
  }
  if (path.startsWith('/api/v1/messages/all_user_messages')) {
    return response(200, [{ message_id: `user_message-${guest.messages}` }, { message_id: `assistant_message-${guest.messages}` }]);
  }
  return response(404, { detail: 'Not Found' });
}
