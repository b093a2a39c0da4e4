#!/usr/bin/env node
// `node scripts/bench-voice-fairness.mjs`: read-aloud for everyone at once (issue 24). The built
// product (`npm start`'s defaults: the offline engine) in its own process; five users each keep
// two 4,096-character texts in flight (each one new, so nothing comes from the cache), while a
// sixth asks for one sentence every second. Measured at the sixth user's HTTP client: the time
// to the first audio byte (p50, p95, max) and every answer that is not a 200 (a 503 counts).
// The sixth user alone, before the load, gives the floor. Then a 4,096-character text spoken
// whole, and its replay (from the cache).
//   BENCH_FAIR_SECONDS (default 30), BENCH_FAIR_HEAVY_USERS (5), BENCH_FAIR_PER_USER (2)
import { randomUUID } from 'node:crypto';
import { benchRecorder } from './bench-record.mjs';
import { guestToken, newConversation, percentile, startBuiltProduct } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_FAIR_SECONDS ?? 30);
const HEAVY_USERS = Number(process.env.BENCH_FAIR_HEAVY_USERS ?? 5);
const PER_USER = Number(process.env.BENCH_FAIR_PER_USER ?? 2);

const PARAGRAPH =
  'The plan for the week starts with the groceries on Monday, then the dentist on Tuesday at ten. ' +
  'On Wednesday the team meets to review the budget, and on Thursday there is a long run by the river. ';
/** A new text of exactly 4,096 characters (a long reply read aloud). */
const longText = () => `${randomUUID()}. ${PARAGRAPH.repeat(30)}`.slice(0, 4096);
const SENTENCE = 'Your next meeting starts in ten minutes, in the small room on the second floor';

async function speak(url, token, body, signal) {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/text-to-speech/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ voice: 'alloy', speed: 1, ...body }),
    signal,
  });
  if (res.status !== 200) {
    await res.text();
    return { status: res.status, firstByteMs: null, totalMs: performance.now() - started, bytes: 0 };
  }
  const reader = res.body.getReader();
  let firstByteMs = null;
  let bytes = 0;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      if (firstByteMs === null) firstByteMs = performance.now() - started;
      bytes += next.value.length;
    }
  } catch (error) {
    // The load ended (aborted) while this text was still being spoken: its first byte still counts.
    if (!signal?.aborted) throw error;
  }
  return { status: 200, firstByteMs, totalMs: performance.now() - started, bytes, requestId: res.headers.get('x-tts-request-id') };
}

const user = async (url) => {
  const token = await guestToken(url);
  return { token, chatId: await newConversation(url, token) };
};

const recorder = benchRecorder('voice-fairness');
const product = await startBuiltProduct({ TTS_REQUESTS_PER_MINUTE: '100000' }, 'bench-voice-fair');
try {
  const light = await user(product.url);
  // Warm-up (the engine warms itself at start; this waits for it) and the floor: the sixth user alone.
  for (let i = 0; i < 3; i++) await speak(product.url, light.token, { text: `${SENTENCE}, warm-up ${i}.` });
  const alone = [];
  for (let i = 0; i < 10; i++) alone.push((await speak(product.url, light.token, { text: `${SENTENCE}, alone ${i}.` })).firstByteMs);

  // The load: each heavy user keeps PER_USER long texts in flight until the end.
  const heavy = await Promise.all(Array.from({ length: HEAVY_USERS }, () => user(product.url)));
  const stop = new AbortController();
  const heavyResults = [];
  const loops = heavy.flatMap((who) =>
    Array.from({ length: PER_USER }, async () => {
      while (!stop.signal.aborted) {
        const result = await speak(product.url, who.token, { text: longText(), chat_id: who.chatId }, stop.signal).catch(() => null);
        if (result) heavyResults.push(result);
      }
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 3_000)); // every long text under way
  const sixth = [];
  const started = performance.now();
  for (let i = 0; performance.now() - started < SECONDS * 1000; i++) {
    const tick = performance.now();
    sixth.push(await speak(product.url, light.token, { text: `${SENTENCE}, number ${i}.` }));
    const wait = 1000 - (performance.now() - tick);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  stop.abort();
  await Promise.allSettled(loops);

  const ok = sixth.filter((r) => r.status === 200).map((r) => r.firstByteMs);
  const refused = sixth.filter((r) => r.status !== 200);
  const p = (values, q) => percentile(values, q).toFixed(0);
  recorder.row(
    'one sentence of a sixth user, request to first audio byte, alone (offline engine)',
    `p50 ${p(alone, 50)} ms, p95 ${p(alone, 95)} ms (${alone.length} requests)`,
    'the floor',
    null,
  );
  recorder.row(
    `one sentence a second from a sixth user while ${HEAVY_USERS} users each hold ${PER_USER} texts of 4,096 characters in flight: first audio byte (offline engine)`,
    `p50 ${p(ok, 50)} ms, p95 ${p(ok, 95)} ms, max ${Math.max(...ok).toFixed(0)} ms; ${refused.length} of ${sixth.length} not 200 (${refused.map((r) => r.status).join(', ') || 'none'})`,
    'p95 under 1,000 ms, no 503',
    percentile(ok, 95) < 1000 && refused.length === 0,
  );
  const heavyFirst = heavyResults.filter((r) => r.status === 200 && r.firstByteMs !== null).map((r) => r.firstByteMs);
  const heavyRefused = heavyResults.filter((r) => r.status !== 200).length;
  recorder.row(
    'the heavy users meanwhile: first audio byte of a 4,096-character text',
    heavyFirst.length
      ? `p50 ${p(heavyFirst, 50)} ms, p95 ${p(heavyFirst, 95)} ms (${heavyFirst.length} texts; ${heavyRefused} not 200)`
      : 'none started',
    'audio starts while the rest is spoken',
    null,
  );

  // A long text spoken whole, then replayed: served from the cache.
  const text = longText();
  const first = await speak(product.url, light.token, { text, chat_id: light.chatId });
  const replay = await speak(product.url, light.token, { text, chat_id: light.chatId });
  recorder.row(
    'a 4,096-character text: spoken (first byte / whole), then replayed (first byte / whole)',
    `${first.firstByteMs.toFixed(0)} / ${first.totalMs.toFixed(0)} ms, replay ${replay.firstByteMs.toFixed(0)} / ${replay.totalMs.toFixed(0)} ms (${(replay.bytes / 48_000).toFixed(0)} s of audio, same clip: ${replay.requestId === first.requestId})`,
    'the replay comes from the cache',
    replay.requestId === first.requestId && replay.bytes === first.bytes,
  );
} finally {
  await product.stop();
}
console.log(`Written to ${recorder.save()}`);
process.exit(0);
