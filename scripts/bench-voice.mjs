#!/usr/bin/env node
// `node scripts/bench-voice.mjs`: what the voice costs on this machine.
//  - the offline engine's real-time factor: synthesis time / audio duration (CMU Flite, the default,
//    in its workers; espeak-ng beside it when installed on purpose), p50 / p95 over sentences of typical length;
//  - the time from request to the first audio byte, measured at the HTTP client on this machine
//    (gateway, bus, tts service, engine: the service side of "first sentence to first sample"),
//    for the offline engine and for the OpenAI engine played by FakeOpenAI (through the real SDK),
//    each text new (no cache), then the same texts again (served from the cache).
// Prints milliseconds.  BENCH_VOICE_SENTENCES (default 60), BENCH_TRANSPORTS (in-process,nats),
// BENCH_VOICE_SAMPLES=<dir>: first write each saved voice as a WAV there (Flite's, and espeak-ng's when installed).
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from './build.mjs';
import { percentile, reachable, root } from './lib.mjs';

const SENTENCES = Number(process.env.BENCH_VOICE_SENTENCES ?? 60);
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');
const { OfflineSpeechEngine } = require('./services/tts/dist/engines/offline.engine.js');
const voices = require('./services/tts/dist/engines/offline-voices.js');

/** Sentences of a typical reply: 60 to 160 characters, as read-aloud chunks are (min_chars 100). */
const BASE = [
  'Lisbon is at its best in April, when the days are warm and the evenings still cool enough for a walk.',
  'Take the number 28 tram early in the morning, before the crowds, and get off at the castle.',
  'If you like seafood, the grilled sardines near the river are simple, cheap and very good.',
  'A day trip to Sintra is worth it; book the palace tickets online to skip the queue.',
  'Most museums close on Mondays, so plan the indoor visits for the rest of the week.',
  'Comfortable shoes matter more than anything else here, because the hills are steep and the stones are slippery.',
];
const sentence = (i) => `${BASE[i % BASE.length]} (${i + 1})`;
const fmt = (x) => (Number.isNaN(x) ? '-' : x < 10 ? x.toFixed(2) : x.toFixed(0));
const rows = [];

async function realTimeFactor(name, voice) {
  const engine = new OfflineSpeechEngine(voice);
  await engine.warmUp();
  const factors = [];
  const times = [];
  for (let i = 0; i < SENTENCES; i++) {
    const started = performance.now();
    const audio = await engine.synthesize({ text: sentence(i), voice: 'alloy', speed: 1, model: engine.model, format: 'pcm' });
    let bytes = 0;
    for await (const part of audio.body) bytes += part.length;
    const ms = performance.now() - started;
    times.push(ms);
    factors.push(ms / 1000 / (bytes / 2 / 24_000));
  }
  await engine.close();
  rows.push({ what: `offline engine (${name}), synthesis time per sentence (ms)`, p50: percentile(times, 50), p95: percentile(times, 95) });
  rows.push({
    what: `offline engine (${name}), real-time factor (synthesis / audio)`,
    p50: percentile(factors, 50),
    p95: percentile(factors, 95),
  });
}

/** Milliseconds from sending the request to the first byte of audio. */
async function firstByte(url, token, text) {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/text-to-speech/file`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, voice: 'alloy', speed: 1 }),
  });
  if (res.status !== 200) throw new Error(`text-to-speech answered ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  const first = await reader.read();
  const at = performance.now() - started;
  if (first.done) throw new Error('No audio');
  while (!(await reader.read()).done);
  return at;
}

async function timeToFirstByte(label, transport, env) {
  const environment = await testing.createTestEnvironment(`bench-voice-${label}`, transport);
  const stack = await bootEmbedded({ ...environment.env, LOG_LEVEL: 'error', TTS_REQUESTS_PER_MINUTE: '100000', ...env });
  try {
    const anon = await fetch(`${stack.url}/api/v1/auth/anon`, { method: 'POST' });
    const { token } = await anon.json();
    const run = `${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 3; i++) await firstByte(stack.url, token, `Warm up ${i} ${run}.`);
    const fresh = [];
    for (let i = 0; i < SENTENCES; i++) fresh.push(await firstByte(stack.url, token, `${sentence(i)} ${run}`));
    const cached = [];
    for (let i = 0; i < SENTENCES; i++) cached.push(await firstByte(stack.url, token, `${sentence(i)} ${run}`));
    rows.push({ what: `${label}, ${transport}: request to first audio byte (ms)`, p50: percentile(fresh, 50), p95: percentile(fresh, 95) });
    rows.push({
      what: `${label}, ${transport}: same, replay from the cache (ms)`,
      p50: percentile(cached, 50),
      p95: percentile(cached, 95),
    });
  } finally {
    await stack.close();
    await environment.cleanup();
  }
}

if (!(await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http')))) {
  console.error(`PostgreSQL does not answer at ${testing.machine.databaseUrl} (set TEST_DATABASE_URL).`);
  process.exit(1);
}
/** Each saved voice speaking one sentence, as a WAV in BENCH_VOICE_SAMPLES (for a person to listen to). */
async function writeSamples(dir, name, voice) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  mkdirSync(dir, { recursive: true });
  const engine = new OfflineSpeechEngine(voice);
  const text = `${BASE[0]} ${BASE[2]}`;
  for (const id of Object.keys(engine.voices())) {
    const audio = await engine.synthesize({ text, voice: id, speed: 1, model: engine.model, format: 'wav' });
    const parts = [];
    for await (const part of audio.body) parts.push(part);
    writeFileSync(join(dir, `${name}-${id}.wav`), Buffer.concat(parts));
  }
  await engine.close();
  console.log(`Voice samples (${name}) written to ${dir}`);
}

if (process.env.BENCH_VOICE_SAMPLES) {
  await writeSamples(process.env.BENCH_VOICE_SAMPLES, 'flite', new voices.FliteVoice(1));
  if (voices.espeakInstalled()) await writeSamples(process.env.BENCH_VOICE_SAMPLES, 'espeak-ng', new voices.EspeakVoice());
}
await realTimeFactor('flite, the default', new voices.FliteVoice(1));
if (voices.espeakInstalled()) await realTimeFactor('espeak-ng, installed on purpose', new voices.EspeakVoice());
const fake = new testing.FakeOpenAI({ apiKey: 'sk-bench' });
await fake.start();
// About what a sentence of speech weighs at 24 kHz, sent in a few pieces as a real server would.
fake.setDefaultReply('audio.speech', () => ({ durationMs: 6_000, chunks: 4 }));
try {
  for (const transport of wanted) {
    if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
      console.log(`NATS does not answer at ${testing.machine.natsUrl}: skipping the NATS transport.`);
      continue;
    }
    await timeToFirstByte('offline engine', transport, { TTS_ENGINE: 'offline' });
    await timeToFirstByte('fake OpenAI engine', transport, {
      TTS_ENGINE: 'openai',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: fake.baseURL,
    });
  }
} finally {
  await fake.stop();
}
console.log(`\nVoice (${SENTENCES} sentences of 80-120 characters)`);
console.table(rows.map((row) => ({ what: row.what, p50: fmt(row.p50), p95: fmt(row.p95) })));
process.exit(0);
