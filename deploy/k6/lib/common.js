// What the k6 scenarios share: options from the environment, the readiness gate of setup(), the
// session the web client keeps (a guest's token, the CSRF token, the session id), request helpers
// and the reply-stream parser. Imported by smoke.js and chat-journey.js; not a scenario itself.

/* global __ENV */ // provided by k6

import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter } from 'k6/metrics';

/** The origin under test: the Ingress host of a deployment, or http://localhost:8080. */
export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');

/** A numeric option (-e NAME=value), refusing anything that is not a non-negative number. */
export function numberOption(name, fallback) {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

export function stringOption(name, fallback) {
  const raw = __ENV[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

export function json(response) {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

export function requestId() {
  return `k6-${exec.vu.idInTest}-${exec.vu.iterationInInstance}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A pause of about `seconds` (between half and one and a half times it), like a person's. */
export function think(seconds) {
  if (seconds > 0) sleep(seconds * (0.5 + Math.random()));
}

/**
 * For setup(): stop the whole run at once, with the answer, when the target is not ready. The
 * numbers of a run against a half-started deployment would mean nothing.
 */
export function requireReady(tags) {
  const response = http.get(`${BASE_URL}/readyz`, { tags });
  if (response.status !== 200) {
    exec.test.abort(`${BASE_URL}/readyz answered ${response.status}: ${String(response.body).slice(0, 500)}`);
  }
}

/** Splits a text/event-stream body into its events: [{ event, data }] with `data` parsed as JSON. */
export function parseEventStream(body) {
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

/** The headers the web client sends: bearer token, CSRF token, session id, a fresh request id. */
export function headers(session, extra) {
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

/** Keeps the session id an answer hands back, as the web client does. */
export function remember(session, response) {
  const sessionId = response.headers['X-User-Session-Id'];
  if (sessionId) session.sessionId = sessionId;
}

// --- Guests: one per virtual user, reused across its iterations --------------------------------

/** How many guests the run created (in the end-of-test summary): compare with the gateway's limit. */
export const guestsCreated = new Counter('guests_created');

// Module state is per virtual user (each VU runs its own copy of this module), so this is the
// current VU's guest.
const current = { session: undefined, messages: 0 };

/** Creates a guest the way the web client does on a first visit: a CSRF token, then POST /auth/anon. */
function createGuest() {
  const session = {};
  const csrf = http.get(`${BASE_URL}/api/v1/auth/csrf-token`, {
    headers: headers(session),
    tags: { kind: 'json', name: 'GET /api/v1/auth/csrf-token' },
  });
  check(csrf, { 'csrf-token: 200': (r) => r.status === 200 });
  session.csrfToken = csrf.headers['X-Csrf-Token'] || csrf.headers['X-CSRF-Token'] || json(csrf)?.csrf_token;

  const anon = http.post(`${BASE_URL}/api/v1/auth/anon`, null, {
    headers: headers(session),
    tags: { kind: 'json', name: 'POST /api/v1/auth/anon' },
  });
  if (anon.status === 429) {
    // Every VU shares the load generator's address: the gateway's per-address guest limit is the
    // limit of the whole run. Stop with the reason instead of measuring refusals.
    exec.test.abort(
      `POST /api/v1/auth/anon answered 429 (${json(anon)?.detail ?? 'rate limited'}): raise GUESTS_PER_IP_PER_HOUR ` +
        '(and RATE_LIMIT_PER_MINUTE) on the gateway for this run, or lower VUS; see deploy/k6/README.md',
    );
  }
  const body = json(anon) || {};
  session.token = body.token || body.access_token;
  remember(session, anon);
  const ok = check(anon, {
    'auth/anon: 2xx': (r) => r.status >= 200 && r.status < 300,
    'auth/anon: returns a token': () => typeof session.token === 'string' && session.token.length > 0,
  });
  if (!ok || !session.token) return undefined;
  guestsCreated.add(1);
  return session;
}

/**
 * This VU's guest: created on its first iteration and reused by the next ones, like a returning
 * visitor, until it has sent `messagesPerGuest` messages (keep that below the chat's
 * CHAT_GUEST_DAILY_LIMIT) or was dropped; then a new one. So a run creates about
 * VUS x (messages per VU / messagesPerGuest) guests, not one per iteration.
 * Returns { session, isNew } or undefined when a guest could not be created.
 */
export function guestSession(messagesPerGuest) {
  if (!current.session || current.messages >= messagesPerGuest) {
    current.session = createGuest();
    current.messages = 0;
    return current.session ? { session: current.session, isNew: true } : undefined;
  }
  return { session: current.session, isNew: false };
}

/** Counts a message sent by the current guest. */
export function countMessage() {
  current.messages += 1;
}

/** Forgets the current guest (its token was refused, or it hit its daily limit): the next iteration makes a new one. */
export function dropGuest() {
  current.session = undefined;
}

/**
 * A `ramping-vus` scenario: up to `vus` users over `rampUp`, held for `hold`, down to none over
 * `rampDown`; a user still in the middle of an iteration (a reply being streamed) gets `rampDown`
 * to finish it.
 */
export function rampScenario({ vus, hold, rampUp, rampDown, startVUs = 0 }) {
  return {
    executor: 'ramping-vus',
    startVUs,
    stages: [
      { duration: rampUp, target: vus },
      { duration: hold, target: vus },
      { duration: rampDown, target: 0 },
    ],
    gracefulRampDown: rampDown,
  };
}
