#!/usr/bin/env node
// `node scripts/bench-sms.mjs`: how long a texter waits for the product, on this machine's PostgreSQL (and NATS).
//  - the time from posting an inbound webhook (signed as Twilio signs it, by FakeTwilio through the real SDK)
//    to the reply handed to the (fake) Twilio REST API: gateway, signature, storage once per MessageSid, the
//    number's account (auth), the reply (chat, with memories) in the thread's conversation, the outbound
//    queue (outbox, bus) and the send. The model is the offline one with no delay per token
//    (OFFLINE_TOKEN_DELAY_MS=0), so the model's delay, subtracted, is zero: what is left is the product's.
//  - one number texting alone (BENCH_SMS_TEXTS texts in turn), then 100 numbers texting at once
//    (BENCH_SMS_NUMBERS; their first texts, which make the accounts, then BENCH_SMS_ROUNDS more rounds).
// Prints p50 / p99 / max in milliseconds.  BENCH_TRANSPORTS (in-process,nats)
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from './build.mjs';
import { percentile, reachable, root } from './lib.mjs';

const TEXTS = Number(process.env.BENCH_SMS_TEXTS ?? 40);
const NUMBERS = Number(process.env.BENCH_SMS_NUMBERS ?? 100);
const ROUNDS = Number(process.env.BENCH_SMS_ROUNDS ?? 3);
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');
const ASSISTANT = '+15005550006';

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');

const fmt = (x) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(1) : x.toFixed(0));
const rows = [];
const stageRows = [];
const row = (what, samples) =>
  rows.push({ what, texts: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) });

/** Fictional numbers (+1 {area} 555 01XX is reserved for fiction; libphonenumber accepts it), distinct per run and transport. */
function numbers(base, count) {
  return Array.from(
    { length: count },
    (_, i) => `+1${String(201 + Math.floor((base + i) / 100)).padStart(3, '0')}55501${String((base + i) % 100).padStart(2, '0')}`,
  );
}

async function measure(transport) {
  const twilio = new testing.FakeTwilio();
  await twilio.start();
  /** Replies waited for, by number: resolved with the time the fake Twilio accepted the text. */
  const waiting = new Map();
  /** Wall-clock times (ms) by MessageSid, to place the stages the database timestamps. */
  const posted = new Map();
  const handed = new Map();
  twilio.onMessage((message) => {
    const resolve = waiting.get(message.to);
    if (!resolve) return;
    waiting.delete(message.to);
    handed.set(message.to, Date.now());
    resolve(performance.now());
  });
  const environment = await testing.createTestEnvironment(`bench-sms-${transport === 'nats' ? 'n' : 'p'}`, transport);
  const stack = await bootEmbedded({
    ...environment.env,
    LOG_LEVEL: 'error',
    OFFLINE_TOKEN_DELAY_MS: '0',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM_NUMBER: ASSISTANT,
    TWILIO_API_BASE_URL: twilio.url,
    SMS_MONTHLY_ALLOWANCE: '1000000',
    SMS_CREDIT_NOTICE_BELOW: '0',
    RATE_LIMIT_PER_MINUTE: '100000',
  });
  const webhook = `${stack.url}/api/v1/sms/twilio/inbound`;
  /** Milliseconds from posting the webhook to the reply at the fake Twilio. */
  async function text(from, body) {
    const reply = new Promise((resolve, reject) => {
      const timer = setTimeout(() => (waiting.delete(from), reject(new Error(`No reply to ${from} within 120 s`))), 120_000);
      waiting.set(from, (at) => (clearTimeout(timer), resolve(at)));
    });
    const sid = `SM${randomBytes(16).toString('hex')}`;
    posted.set(sid, Date.now());
    const started = performance.now();
    const res = await twilio.sendInbound(webhook, { from, to: ASSISTANT, body, messageSid: sid });
    if (res.status !== 200) throw new Error(`The webhook answered ${res.status}: ${res.body}`);
    const ms = (await reply) - started;
    stages.push({ sid, from, handedAt: handed.get(from) });
    return ms;
  }
  let stages = [];
  const sms = stack.services.find((s) => s.name === 'sms');
  /** Where the time of the texts since the last call went: the stored and queued times the database kept. */
  async function breakdown(label) {
    const done = stages;
    stages = [];
    const stored = await sms.dataSource.query(
      `SELECT i.message_sid, i.created_at AS stored_at, o.created_at AS queued_at FROM inbound_message i
       JOIN outbound_message o ON o.inbound_id = i.id AND o.purpose = 'reply' WHERE i.message_sid = ANY($1)`,
      [done.map((d) => d.sid)],
    );
    const bySid = new Map(stored.map((r) => [r.message_sid, r]));
    const parts = { 'webhook to stored': [], 'stored to reply queued (account, chat)': [], 'queued to handed to Twilio': [] };
    for (const d of done) {
      const r = bySid.get(d.sid);
      if (!r) continue;
      parts['webhook to stored'].push(new Date(r.stored_at).getTime() - posted.get(d.sid));
      parts['stored to reply queued (account, chat)'].push(new Date(r.queued_at).getTime() - new Date(r.stored_at).getTime());
      parts['queued to handed to Twilio'].push(d.handedAt - new Date(r.queued_at).getTime());
    }
    for (const [part, samples] of Object.entries(parts))
      stageRows.push({
        what: `${label}: ${part}`,
        texts: samples.length,
        p50: percentile(samples, 50),
        p99: percentile(samples, 99),
        max: Math.max(...samples),
      });
  }
  try {
    const [alone] = numbers(transport === 'nats' ? 500 : 0, 1);
    await text(alone, 'Hello!');
    const single = [];
    for (let i = 0; i < TEXTS; i++) single.push(await text(alone, `Tell me something about the number ${i + 1}.`));
    row(`${transport}: 1 number, one text at a time`, single);
    stages = [];

    const crowd = numbers(transport === 'nats' ? 600 : 100, NUMBERS);
    const first = await Promise.all(crowd.map((from) => text(from, 'Hi! What can you do?')));
    row(`${transport}: ${NUMBERS} numbers at once, first texts (accounts made)`, first);
    await breakdown(`${transport}, ${NUMBERS} at once, first texts`);
    const later = [];
    for (let round = 0; round < ROUNDS; round++) {
      later.push(...(await Promise.all(crowd.map((from, i) => text(from, `Round ${round + 1}: what is ${i} times ${round + 2}?`)))));
    }
    row(`${transport}: ${NUMBERS} numbers at once, later texts`, later);
    await breakdown(`${transport}, ${NUMBERS} at once, later texts`);
  } finally {
    await stack.close();
    await environment.cleanup();
    await twilio.stop();
  }
}

if (!(await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http')))) {
  console.error(`PostgreSQL does not answer at ${testing.machine.databaseUrl} (set TEST_DATABASE_URL).`);
  process.exit(1);
}
for (const transport of wanted) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log(`NATS does not answer at ${testing.machine.natsUrl}: skipping the NATS transport.`);
    continue;
  }
  await measure(transport);
}
console.log('\nText messages: inbound webhook to the reply handed to Twilio (ms; the offline model, no token delay)');
console.table(rows.map((r) => ({ what: r.what, texts: r.texts, p50: fmt(r.p50), p99: fmt(r.p99), max: fmt(r.max) })));
console.log('\nWhere the time goes (ms, from the timestamps the database kept)');
console.table(stageRows.map((r) => ({ what: r.what, texts: r.texts, p50: fmt(r.p50), p99: fmt(r.p99), max: fmt(r.max) })));
process.exit(0);
