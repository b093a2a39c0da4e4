// The main user journey, as the web client drives it: a visitor becomes a guest (once per virtual
// user, then reused like a returning visitor), checks its session, opens the conversation list,
// starts a conversation, sends a message and reads the streamed reply, then reloads the history.
//
//   k6 run deploy/k6/chat-journey.js
//   k6 run -e BASE_URL=https://assistant.example.com -e VUS=50 -e HOLD=10m deploy/k6/chat-journey.js
//
// Options (-e NAME=value):
//   BASE_URL           default http://localhost:8080
//   VUS                peak virtual users (default 10)
//   HOLD               time at the peak (default 2m)
//   REPLY_P95_MS       p95 limit of a whole streamed reply (default 10000; the offline LLM answers
//                      in well under a second, a real model needs more)
//   THINK_SECONDS      mean pause between a user's actions (default 2)
//   MESSAGES_PER_GUEST messages a guest sends before the VU makes a new one (default 45; keep it
//                      below the chat's CHAT_GUEST_DAILY_LIMIT, 50 by default)
//
// Every virtual user comes from the load generator's address, and the gateway limits each address:
// RATE_LIMIT_PER_MINUTE requests per minute (1200) and GUESTS_PER_IP_PER_HOUR new guests per hour
// (60). Raise them on the target for a load test: deploy/k6/README.md says how and by how much.

import http from 'k6/http';
import { check, group } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import {
  BASE_URL,
  countMessage,
  dropGuest,
  guestSession,
  headers,
  json,
  numberOption,
  parseEventStream,
  rampScenario,
  remember,
  requireReady,
  stringOption,
  think,
} from './lib/common.js';

const VUS = numberOption('VUS', 10);
const HOLD = stringOption('HOLD', '2m');
const REPLY_P95_MS = numberOption('REPLY_P95_MS', 10000);
const THINK_SECONDS = numberOption('THINK_SECONDS', 2);
const MESSAGES_PER_GUEST = Math.max(1, numberOption('MESSAGES_PER_GUEST', 45));

// Time to the first byte of the reply stream (the `user_message` event): what the user feels.
const replyFirstByte = new Trend('reply_first_byte', true);
// Time to the end of the reply stream (`done`).
const replyDuration = new Trend('reply_duration', true);
// A whole journey went through with every check passing.
const journeySucceeded = new Rate('journey_succeeded');
const replyErrors = new Counter('reply_error_events');

export const options = {
  scenarios: {
    // A user the ramp-down reaches has its 30 s to finish the reply being streamed.
    chat: rampScenario({ vus: VUS, hold: HOLD, rampUp: '30s', rampDown: '30s' }),
  },
  // A VU is one visitor across its iterations: keep its cookies (the CSRF cookie, the file-view
  // cookie) as a browser would.
  noCookiesReset: true,
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

export function setup() {
  requireReady();
}

export default function () {
  const guest = guestSession(MESSAGES_PER_GUEST);
  if (!guest) {
    journeySucceeded.add(false);
    think(THINK_SECONDS);
    return;
  }
  const session = guest.session;
  let ok = true;

  group('start: the stored session', () => {
    // The client validates its stored token at start-up, on a first visit as on a return.
    const me = http.get(`${BASE_URL}/api/v1/auth/me`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/auth/me' },
    });
    remember(session, me);
    ok =
      check(me, {
        'auth/me: 200': (r) => r.status === 200,
        'auth/me: anonymous user': (r) => json(r)?.is_anon === true,
      }) && ok;
    if (me.status === 401) dropGuest();
  });
  if (!ok) {
    journeySucceeded.add(false);
    return;
  }
  think(THINK_SECONDS);

  let chatId;
  group('open the conversation list and start one', () => {
    const list = http.get(`${BASE_URL}/api/v1/chats/`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/chats/' },
    });
    ok =
      check(list, {
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
    ok =
      check(created, {
        'create chat: 2xx': (r) => r.status >= 200 && r.status < 300,
        'create chat: has chat_id': () => chatId !== undefined && chatId !== null && String(chatId).length > 0,
      }) && ok;
  });
  if (!chatId) {
    journeySucceeded.add(false);
    return;
  }
  think(THINK_SECONDS);

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
    countMessage();
    // The guest's messages of the day are used up (CHAT_GUEST_DAILY_LIMIT): a new guest next time.
    if (reply.status === 429) dropGuest();
    replyFirstByte.add(reply.timings.waiting);
    replyDuration.add(reply.timings.duration);

    const events = parseEventStream(reply.body);
    const names = events.map((e) => e.event);
    const errors = events.filter((e) => e.event === 'error');
    replyErrors.add(errors.length);
    userMessageId = events.find((e) => e.event === 'user_message')?.data?.message_id;
    assistantMessageId = events.find((e) => e.event === 'assistant_message')?.data?.message_id;

    ok =
      check(reply, {
        'reply: 200': (r) => r.status === 200,
        'reply: text/event-stream': (r) => /^text\/event-stream/.test(r.headers['Content-Type'] || ''),
        'reply: sends the stored user_message': () => userMessageId !== undefined,
        'reply: streams text': () => names.includes('text'),
        'reply: stores assistant_message': () => assistantMessageId !== undefined,
        'reply: ends with done': () => names[names.length - 1] === 'done',
        'reply: no error event': () => errors.length === 0,
      }) && ok;
  });
  think(THINK_SECONDS);

  group('reload the history', () => {
    const history = http.get(`${BASE_URL}/api/v1/messages/all_user_messages?chat_ids=${encodeURIComponent(chatId)}`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/messages/all_user_messages' },
    });
    const messages = json(history);
    const ids = Array.isArray(messages) ? messages.map((m) => m.message_id) : [];
    ok =
      check(history, {
        'history: 200': (r) => r.status === 200,
        'history: has the user message': () => userMessageId !== undefined && ids.includes(userMessageId),
        'history: has the reply': () => assistantMessageId !== undefined && ids.includes(assistantMessageId),
      }) && ok;

    const list = http.get(`${BASE_URL}/api/v1/chats/`, {
      headers: headers(session),
      tags: { kind: 'json', name: 'GET /api/v1/chats/' },
    });
    ok =
      check(list, {
        'chats list: has the new conversation': (r) => Array.isArray(json(r)) && json(r).some((c) => String(c.chat_id) === String(chatId)),
      }) && ok;
  });

  journeySucceeded.add(ok);
  think(THINK_SECONDS);
}
