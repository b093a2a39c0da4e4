// The main user journey, as the web client drives it: an anonymous visitor gets a token, opens
// the conversation list, starts a conversation, sends a message and reads the streamed reply,
// then reloads the history.
//
// NOTE: written against the API of spec/PRODUCT.md section 7 and DESIGN.md section 4. The auth,
// chat and message endpoints are coming in later work; until they exist this script fails at its
// first step (`POST /api/v1/auth/anon`). Use smoke.js for what is served today.
//
//   k6 run deploy/k6/chat-journey.js
//   k6 run -e BASE_URL=https://assistant.example.com -e VUS=50 deploy/k6/chat-journey.js
//
// Options (-e NAME=value):
//   BASE_URL       default http://localhost:8080
//   VUS            peak virtual users (default 10)
//   HOLD           time at the peak (default 2m)
//   REPLY_P95_MS   p95 limit of a whole streamed reply (default 10000; the offline LLM answers
//                  in well under a second, a real model needs more)
//   THINK_SECONDS  mean pause between a user's actions (default 2)
//
// The gateway limits each client address to RATE_LIMIT_PER_MINUTE requests on /api/v1 (1200 by
// default). Every virtual user shares the load generator's address: raise the limit on the
// target for a load test, or the run measures 429s. See deploy/k6/README.md.

/* global __ENV */ // provided by k6

import http from 'k6/http';
import { check, group, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');
const VUS = Number(__ENV.VUS || 10);
const HOLD = __ENV.HOLD || '2m';
const REPLY_P95_MS = Number(__ENV.REPLY_P95_MS || 10000);
const THINK_SECONDS = Number(__ENV.THINK_SECONDS || 2);

// Time to the first byte of the reply stream (the `user_message` event): what the user feels.
const replyFirstByte = new Trend('reply_first_byte', true);
// Time to the end of the reply stream (`done`).
const replyDuration = new Trend('reply_duration', true);
// A whole journey went through with every check passing.
const journeySucceeded = new Rate('journey_succeeded');
const replyErrors = new Counter('reply_error_events');

export const options = {
  scenarios: {
    chat: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: '30s', target: VUS },
        { duration: HOLD, target: VUS },
        { duration: '30s', target: 0 },
      ],
      // Let a user finish the reply being streamed when the ramp-down reaches them.
      gracefulRampDown: '30s',
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    journey_succeeded: ['rate>0.99'],
    // Plain JSON calls (everything but the reply stream).
    'http_req_duration{kind:json}': ['p(95)<300', 'p(99)<1000'],
    reply_first_byte: ['p(95)<1500'],
    reply_duration: [`p(95)<${REPLY_P95_MS}`],
    reply_error_events: ['count<1'],
  },
};

// --- helpers ---------------------------------------------------------------------------------

function requestId() {
  return `k6-${exec.vu.idInTest}-${exec.vu.iterationInInstance}-${Math.random().toString(36).slice(2, 10)}`;
}

function json(response) {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

function think() {
  sleep(THINK_SECONDS * (0.5 + Math.random()));
}

/** Splits a text/event-stream body into its events: [{ event, data }] with `data` parsed as JSON. */
function parseEventStream(body) {
  const events = [];
  for (const block of String(body || '').split(/\r?\n\r?\n/)) {
    let event = 'message';
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue; // comment / keep-alive
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) continue;
    const text = data.join('\n');
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    events.push({ event, data: parsed });
  }
  return events;
}

/** The session the web client keeps: the bearer token, the CSRF token, the session id. */
function headers(session, extra) {
  const result = {
    Accept: 'application/json',
    'X-Request-Id': requestId(),
    ...extra,
  };
  if (session.token) result.Authorization = `Bearer ${session.token}`;
  if (session.csrfToken) result['X-CSRF-Token'] = session.csrfToken;
  if (session.sessionId) result['X-User-Session-Id'] = session.sessionId;
  return result;
}

function remember(session, response) {
  const sessionId = response.headers['X-User-Session-Id'];
  if (sessionId) session.sessionId = sessionId;
}

// --- the journey -------------------------------------------------------------------------------

export function setup() {
  const response = http.get(`${BASE_URL}/readyz`);
  if (response.status !== 200) {
    exec.test.abort(`${BASE_URL}/readyz answered ${response.status}: ${String(response.body).slice(0, 500)}`);
  }
  return {};
}

export default function () {
  const session = {};
  let ok = true;

  group('start: anonymous user', () => {
    // The client fetches a CSRF token at start-up and sends it with state-changing calls.
    const csrf = http.get(`${BASE_URL}/api/v1/auth/csrf-token`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/auth/csrf-token' },
    });
    ok = check(csrf, { 'csrf-token: 200': (r) => r.status === 200 }) && ok;
    session.csrfToken = csrf.headers['X-Csrf-Token'] || csrf.headers['X-CSRF-Token'];

    const anon = http.post(`${BASE_URL}/api/v1/auth/anon`, null, {
      headers: headers(session),
      tags: { kind: 'json', name: 'POST /api/v1/auth/anon' },
    });
    const body = json(anon) || {};
    session.token = body.token || body.access_token;
    remember(session, anon);
    ok = check(anon, {
      'auth/anon: 2xx': (r) => r.status >= 200 && r.status < 300,
      'auth/anon: returns a token': () => typeof session.token === 'string' && session.token.length > 0,
    }) && ok;
    if (!session.token) return;

    // The client validates the stored token at once.
    const me = http.get(`${BASE_URL}/api/v1/auth/me`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/auth/me' },
    });
    ok = check(me, {
      'auth/me: 200': (r) => r.status === 200,
      'auth/me: anonymous user': (r) => json(r)?.is_anon === true,
    }) && ok;
  });
  if (!session.token) {
    journeySucceeded.add(false);
    return;
  }
  think();

  let chatId;
  group('open the conversation list and start one', () => {
    const list = http.get(`${BASE_URL}/api/v1/chats/`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/chats/' },
    });
    ok = check(list, {
      'chats list: 200': (r) => r.status === 200,
      'chats list: an array': (r) => Array.isArray(json(r)),
    }) && ok;

    const created = http.post(
      `${BASE_URL}/api/v1/chats/`,
      JSON.stringify({ conversation_title: `k6 conversation ${exec.vu.idInTest}-${exec.vu.iterationInInstance}` }),
      {
        headers: headers(session, { 'Content-Type': 'application/json' }),
        tags: { kind: 'json', name: 'POST /api/v1/chats/' },
      },
    );
    chatId = json(created)?.chat_id;
    ok = check(created, {
      'create chat: 2xx': (r) => r.status >= 200 && r.status < 300,
      'create chat: has chat_id': () => chatId !== undefined && chatId !== null && String(chatId).length > 0,
    }) && ok;
  });
  if (!chatId) {
    journeySucceeded.add(false);
    return;
  }
  think();

  let userMessageId;
  let assistantMessageId;
  group('send a message and read the reply stream', () => {
    // k6 reads the whole stream before returning: the timings give the first byte (the stored
    // user message, sent before generation starts) and the end of the reply (`done`).
    const reply = http.post(
      `${BASE_URL}/api/v1/chats/${chatId}/messages`,
      JSON.stringify({ content: 'Give me three ideas for a quick weeknight dinner.' }),
      {
        headers: headers(session, { 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
        tags: { kind: 'stream', name: 'POST /api/v1/chats/{chat_id}/messages' },
        timeout: '120s',
      },
    );
    replyFirstByte.add(reply.timings.waiting);
    replyDuration.add(reply.timings.duration);

    const events = parseEventStream(reply.body);
    const names = events.map((e) => e.event);
    const errors = events.filter((e) => e.event === 'error');
    replyErrors.add(errors.length);
    userMessageId = events.find((e) => e.event === 'user_message')?.data?.message_id;
    assistantMessageId = events.find((e) => e.event === 'assistant_message')?.data?.message_id;

    ok = check(reply, {
      'reply: 200': (r) => r.status === 200,
      'reply: text/event-stream': (r) => /^text\/event-stream/.test(r.headers['Content-Type'] || ''),
      'reply: sends the stored user_message': () => userMessageId !== undefined,
      'reply: streams text': () => names.includes('text'),
      'reply: stores assistant_message': () => assistantMessageId !== undefined,
      'reply: ends with done': () => names[names.length - 1] === 'done',
      'reply: no error event': () => errors.length === 0,
    }) && ok;
  });
  think();

  group('reload the history', () => {
    const history = http.get(`${BASE_URL}/api/v1/messages/all_user_messages?chat_ids=${encodeURIComponent(chatId)}`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/messages/all_user_messages' },
    });
    const messages = json(history);
    const ids = Array.isArray(messages) ? messages.map((m) => m.message_id) : [];
    ok = check(history, {
      'history: 200': (r) => r.status === 200,
      'history: has the user message': () => userMessageId !== undefined && ids.includes(userMessageId),
      'history: has the reply': () => assistantMessageId !== undefined && ids.includes(assistantMessageId),
    }) && ok;

    const list = http.get(`${BASE_URL}/api/v1/chats/`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/chats/' },
    });
    ok = check(list, {
      'chats list: has the new conversation': (r) =>
        Array.isArray(json(r)) && json(r).some((c) => String(c.chat_id) === String(chatId)),
    }) && ok;
  });

  journeySucceeded.add(ok);
  think();
}
