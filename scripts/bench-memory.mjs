#!/usr/bin/env node
// `node scripts/bench-memory.mjs`: what long-term memory costs, on the machine's PostgreSQL (and NATS).
//  - retrieval (memory.relevant.search over the bus, what the chat service asks before each reply)
//    for a user with 1,000 and 10,000 memories, among other users' memories;
//  - extraction per exchange (the whole event handling: extraction and the merge transaction),
//    with the offline rules and with a model played by FakeOpenAI (through the real SDK).
// Prints p50 / p99 / mean in milliseconds.
//   BENCH_MEMORY_QUERIES (default 300), BENCH_MEMORY_EXCHANGES (default 200), BENCH_TRANSPORTS (in-process,nats)
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { reachable, root } from './lib.mjs';

const QUERIES = Number(process.env.BENCH_MEMORY_QUERIES ?? 300);
const EXCHANGES = Number(process.env.BENCH_MEMORY_EXCHANGES ?? 200);
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');
const platform = require('./libs/platform/dist/index.js');
const { MEMORY_RPC } = require('./libs/contracts/dist/memory/index.js');
const memory = require('./services/memory/dist/index.js');
const { Client } = require('pg');

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), mean: sorted.reduce((s, x) => s + x, 0) / sorted.length };
}
const ms = (x) => (x < 1 ? x.toFixed(3) : x.toFixed(2));

const WORDS = (
  'jazz hiking sushi tennis guitar piano coffee tea chess cycling running swimming yoga painting photography gardening cooking baking ' +
  'reading poetry history science football basketball climbing skiing surfing sailing fishing camping travel museums opera theatre ' +
  'cinema podcasts wine beer cheese chocolate olives mushrooms spinach pasta pizza ramen curry tacos dumplings croissants bagels ' +
  'lisbon porto paris berlin london madrid rome tokyo seoul toronto boston chicago denver austin dublin oslo vienna prague'
).split(' ');
const TEMPLATES = [
  'Likes {w}',
  'Loves {w} on weekends',
  'Dislikes {w}',
  'Went to {w} festival in {n}',
  'Is learning about {w}',
  'Has a friend who loves {w}',
  'Bought a book on {w}',
  'Wants to try {w} again',
];

/** Inserts `count` memories for a user straight into the table (texts varied enough for full text to discriminate). */
async function seed(db, userId, count, offset = 0) {
  await db.query(
    `INSERT INTO memory.user_memory (user_memory_id, user_id, text, normalized_text, subject_key, is_inference, is_fact, is_confirmed, created_at, updated_at)
     SELECT gen_random_uuid(), $1, t.text, lower(t.text), 'preference:' || i, (i % 7 = 0), (i % 3 = 0), (i % 5 <> 0), now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval
     FROM generate_series($2::int, $3::int) AS i,
          LATERAL (SELECT replace(replace(($4::text[])[1 + i % array_length($4::text[], 1)], '{w}', ($5::text[])[1 + (i * 7 + i / 13) % array_length($5::text[], 1)]), '{n}', (2000 + i % 25)::text) AS text) t`,
    [userId, offset, offset + count - 1, TEMPLATES, WORDS],
  );
  await db.query('ANALYZE memory.user_memory');
}

const QUESTIONS = [
  'Any good jazz clubs in Lisbon?',
  'What should I cook tonight with spinach and mushrooms?',
  'What do you know about me?',
  'Plan a weekend in Porto for me',
  'Can you recommend a podcast about history?',
  'How do I improve my tennis serve?',
  'Write a haiku about autumn',
  'Which wine goes with cheese?',
  'What is the capital of Australia?',
  'Suggest a museum in Vienna or Prague',
];

async function retrieval(stack, db, transport) {
  const rpc = new platform.RpcClient(stack.runtime.bus, 10_000);
  const rows = [];
  // Other users' memories around, so that the full-text index is not the user's alone.
  for (let i = 0; i < 5; i++) await seed(db, randomUUID(), 4_000, i * 4_000);
  for (const size of [1_000, 10_000]) {
    const userId = randomUUID();
    await seed(db, userId, size);
    const caller = { user_id: userId, is_anon: false, session_id: null, request_id: 'bench' };
    for (let i = 0; i < 30; i++) await rpc.call(MEMORY_RPC.relevant, { query: QUESTIONS[i % QUESTIONS.length], limit: 8 }, caller);
    const samples = [];
    let found = 0;
    for (let i = 0; i < QUERIES; i++) {
      const started = performance.now();
      const { memories } = await rpc.call(MEMORY_RPC.relevant, { query: QUESTIONS[i % QUESTIONS.length], limit: 8 }, caller);
      samples.push(performance.now() - started);
      found += memories.length;
    }
    rows.push({
      what: `retrieval, ${size.toLocaleString('en')} memories (${transport})`,
      ...stats(samples),
      note: `${(found / QUERIES).toFixed(1)} memories per answer`,
    });
  }
  return rows;
}

const STATEMENTS = [
  'I moved to Lisbon last month.',
  'My daughter is called Ana.',
  "I'm vegetarian, any ideas for dinner?",
  'I work as a nurse at Mount Sinai.',
  'What is the capital of France?',
  'I love jazz, especially Coltrane.',
  "I'm allergic to peanuts and shellfish.",
  'Actually I moved to Porto.',
  'Write me a poem about the sea.',
  'My birthday is on 12 March.',
];

async function extraction(stack, db, label) {
  const service = stack.services.find((s) => s.name === 'memory').app.get(memory.ExtractionService);
  const userId = randomUUID();
  await seed(db, userId, 1_000);
  const samples = [];
  for (let i = 0; i < EXCHANGES + 20; i++) {
    const payload = {
      user_id: userId,
      chat_id: randomUUID(),
      user_message_id: randomUUID(),
      assistant_message_id: randomUUID(),
      user_text: STATEMENTS[i % STATEMENTS.length],
      assistant_text: 'Noted, thank you. Here is a reply of ordinary length for the model to read as well.',
    };
    const started = performance.now();
    await service.learn(randomUUID(), payload);
    if (i >= 20) samples.push(performance.now() - started);
  }
  return {
    what: `extraction per exchange, ${label}`,
    ...stats(samples),
    note: 'learn(): extract + merge transaction; user with 1,000 memories',
  };
}

function rulesAlone() {
  const samples = [];
  for (let i = 0; i < 20_000; i++) {
    const started = performance.now();
    memory.extractByRules(STATEMENTS[i % STATEMENTS.length]);
    samples.push(performance.now() - started);
  }
  return { what: 'offline rules alone, per message', ...stats(samples.slice(1_000)), note: 'extractByRules()' };
}

async function withStack(label, transport, extraEnv, fn) {
  const environment = await testing.createTestEnvironment(label, transport);
  const stack = await bootEmbedded({ ...environment.env, LOG_LEVEL: 'error', ...extraEnv });
  const db = new Client({ connectionString: environment.database.url });
  await db.connect();
  try {
    return await fn(stack, db);
  } finally {
    await db.end();
    await stack.close();
    await environment.cleanup();
  }
}

if (!(await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http')))) {
  console.error(`PostgreSQL does not answer at ${testing.machine.databaseUrl} (set TEST_DATABASE_URL).`);
  process.exit(1);
}
const rows = [];
for (const transport of wanted) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log(`NATS does not answer at ${testing.machine.natsUrl}: skipping the NATS transport.`);
    continue;
  }
  console.log(`${transport}: retrieval...`);
  rows.push(...(await withStack('benchmemory', transport, {}, (stack, db) => retrieval(stack, db, transport))));
}
console.log('extraction (offline rules)...');
rows.push(rulesAlone());
rows.push(
  await withStack('benchmemoryrules', 'in-process', { MEMORY_EXTRACTOR: 'rules' }, (stack, db) => extraction(stack, db, 'offline rules')),
);
console.log('extraction (a model played by FakeOpenAI)...');
const fake = new testing.FakeOpenAI({ apiKey: 'bench' });
await fake.start();
const answer = JSON.stringify({
  memories: [
    { text: 'Lives in Lisbon', subject: 'home', is_inference: false, is_fact: true },
    { text: 'Is a parent', subject: 'inference:parent', is_inference: true, is_fact: true },
  ],
});
fake.setDefaultReply('responses', () => answer);
try {
  rows.push(
    await withStack(
      'benchmemorymodel',
      'in-process',
      { LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.baseURL, MEMORY_EXTRACTOR: 'model' },
      (stack, db) => extraction(stack, db, 'model (FakeOpenAI, instant)'),
    ),
  );
} finally {
  await fake.stop();
}

// The row: retrieval p99 at 10,000 memories, with what else loaded the machine meanwhile.
const record = benchRecorder('memory');
const load = loadavg()
  .map((l) => l.toFixed(1))
  .join(' / ');
for (const r of rows.filter((row) => row.what.startsWith('retrieval, 10,000')))
  record.row(
    `memory retrieval p99, 10,000 memories (${r.what.match(/\((.*)\)/)[1]})`,
    `${ms(r.p99)} ms (p50 ${ms(r.p50)} ms, ${r.n} calls; load average 1/5/15 min ${load})`,
    'at most 5 ms',
    r.p99 <= 5,
  );
record.save();

const pad = (s, n) => String(s).padEnd(n);
console.log(`\n${pad('measure', 58)}${pad('n', 7)}${pad('p50 ms', 10)}${pad('p99 ms', 10)}${pad('mean ms', 10)}note`);
for (const r of rows)
  console.log(`${pad(r.what, 58)}${pad(r.n, 7)}${pad(ms(r.p50), 10)}${pad(ms(r.p99), 10)}${pad(ms(r.mean), 10)}${r.note}`);
process.exit(0);
