#!/usr/bin/env node
// `node scripts/bench-search.mjs`: the conversation search (issue 25) on the machine's PostgreSQL.
// One user with 10,000 conversations and 200,000 messages among 1,000,000 messages of 5,000 other
// users; `chat.search` over the bus, as the gateway calls it, for what people type: every prefix (two
// letters and more) of words from the rarest to the most common, and pairs of words. Prints p50 / p99.
//   BENCH_SEARCH_OTHERS (1,000,000), BENCH_SEARCH_MINE (200,000), BENCH_SEARCH_QUERIES (600),
//   BENCH_TRANSPORTS (in-process,nats), BENCH_SEARCH_KEEP=1 (keep the seeded database and print its URL,
//   to profile the queries with EXPLAIN ANALYZE; drop it by hand afterwards), BENCH_SEARCH_DATABASE=<url>
//   (search a kept database instead of seeding one: before and after a change, side by side, in minutes)
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { reachable, root } from './lib.mjs';

const OTHERS = Number(process.env.BENCH_SEARCH_OTHERS ?? 1_000_000);
const MINE = Number(process.env.BENCH_SEARCH_MINE ?? 200_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 600);
const PER_CONVERSATION = 20;
const wanted = (process.env.BENCH_TRANSPORTS ?? 'in-process,nats').split(',');

build({ quiet: true });
const require = createRequire(join(root, 'package.json'));
const { bootEmbedded } = require('./deploy/embedded/dist/index.js');
const testing = require('./libs/testing/dist/index.js');
const platform = require('./libs/platform/dist/index.js');
const { CHAT_RPC } = require('./libs/contracts/dist/chat/index.js');
const { Client } = require('pg');

/** A deterministic generator (mulberry32), so every run searches the same texts. */
function prng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261126);
const SYLLABLES = 'ka lo mi ne po ru sa ti va ze bo da fe gi hu ja ko li mu no ra le mo ni ta su pe do vi lu so ri ma te bi go fa'.split(
  ' ',
);
/** 20,000 made-up words, some with accents; word i is drawn with a probability falling as 1/i (Zipf). */
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = i + 7; n > 0 || word.length < 4; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return i % 17 === 0 ? word.replace('e', 'é') : word;
});
const HARMONIC = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
const CUMULATIVE = (() => {
  let sum = 0;
  return VOCABULARY.map((_, i) => (sum += 1 / (i + 1) / HARMONIC));
})();
function word() {
  const x = random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo];
}
const sentence = (n) => Array.from({ length: n }, word).join(' ');

/** `count` messages of one user, `PER_CONVERSATION` to a conversation, inserted in batches. */
async function seedUser(db, userId, count, progress) {
  const BATCH = 5_000;
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const conversations = Math.ceil(n / PER_CONVERSATION);
    const chatIds = Array.from({ length: conversations }, () => randomUUID());
    await db.query(
      `INSERT INTO chat.conversation (id, user_id, title, last_message_at, created_at)
       SELECT id, $1, title, now() - make_interval(secs => age), now() - make_interval(secs => age)
       FROM unnest($2::uuid[], $3::text[], $4::float8[]) AS t(id, title, age)`,
      [
        userId,
        chatIds,
        chatIds.map(() => sentence(2 + Math.floor(random() * 4))),
        chatIds.map((_, i) => (count - done - i * PER_CONVERSATION) * 60),
      ],
    );
    const ids = [];
    const chats = [];
    const senders = [];
    const contents = [];
    const ages = [];
    for (let i = 0; i < n; i++) {
      ids.push(randomUUID());
      chats.push(chatIds[Math.floor(i / PER_CONVERSATION)]);
      senders.push(i % 2 ? 'assistant' : 'user');
      contents.push(sentence(i % 2 ? 20 + Math.floor(random() * 60) : 4 + Math.floor(random() * 20)));
      ages.push((count - done - i) * 60);
    }
    await db.query(
      `INSERT INTO chat.message (id, chat_id, user_id, sender, content, created_at)
       SELECT id, chat_id, $1, sender, content, now() - make_interval(secs => age)
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::float8[]) AS t(id, chat_id, sender, content, age)`,
      [userId, ids, chats, senders, contents, ages],
    );
    progress?.(done + n);
  }
}

/** What people type: each prefix of a word as it is typed (from two letters), for words from rare to common; and pairs. */
function queries() {
  const picks = [0, 1, 3, 10, 30, 100, 300, 1_000, 3_000, 10_000, 19_000];
  const typed = [];
  for (const rank of picks) {
    const w = VOCABULARY[rank];
    for (let i = 2; i <= w.length; i++) typed.push(w.slice(0, i));
  }
  // Pairs drawn from their own generator: the same whether the data was seeded in this run or reused.
  const pick = prng(26112026);
  for (let i = 0; i < 20; i++) typed.push(`${VOCABULARY[Math.floor(pick() * 500)]} ${VOCABULARY[Math.floor(pick() * 5_000)]}`);
  typed.push('nothingmatchesthis', VOCABULARY[17], VOCABULARY[17].normalize('NFD').replace(/\p{M}/gu, ''));
  return typed;
}

/** The bench's rows: 5,000 other users' messages, then the searched user's; the GIN index built after them. */
async function seed(db) {
  const started = performance.now();
  // The index is built once, after the rows (as a restore would); the data is the same either way.
  await db.query('DROP INDEX chat.message_search_idx');
  const others = 5_000;
  let seeded = 0;
  for (let u = 0; u < others; u++) {
    await seedUser(db, randomUUID(), Math.floor(OTHERS / others));
    seeded += Math.floor(OTHERS / others);
    if (u % 500 === 499) console.log(`  ${seeded.toLocaleString('en')} other messages...`);
  }
  const me = randomUUID();
  await seedUser(db, me, MINE, (n) => n % 50_000 === 0 && console.log(`  ${n.toLocaleString('en')} of the user's messages...`));
  await db.query('CREATE INDEX message_search_idx ON chat.message USING gin (search)');
  await db.query('VACUUM ANALYZE chat.message');
  await db.query('VACUUM ANALYZE chat.conversation');
  const { rows } = await db.query('SELECT count(*)::int AS n FROM chat.message');
  console.log(`  seeded ${rows[0].n.toLocaleString('en')} messages in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return me;
}

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) };
}

async function run(transport) {
  const environment = await testing.createTestEnvironment('benchsearch', transport);
  const reused = process.env.BENCH_SEARCH_DATABASE;
  const databaseUrl = reused ?? environment.database.url;
  const stack = await bootEmbedded({ ...environment.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    let me;
    if (reused) {
      // A database a run kept (BENCH_SEARCH_KEEP): its heaviest user is the one searched.
      me = (await db.query('SELECT user_id FROM chat.message GROUP BY user_id ORDER BY count(*) DESC LIMIT 1')).rows[0].user_id;
      console.log(`  reusing ${reused} (user ${me})`);
    } else {
      me = await seed(db);
    }
    const rpc = new platform.RpcClient(stack.runtime.bus, 10_000);
    const caller = { user_id: me, is_anon: false, session_id: null, request_id: 'bench' };
    const typed = queries();
    for (const q of typed.slice(0, 40)) await rpc.call(CHAT_RPC.search, { q, limit: 20 }, caller);
    const samples = [];
    const slowest = [];
    let found = 0;
    for (let i = 0; i < QUERIES; i++) {
      const q = typed[i % typed.length];
      const t0 = performance.now();
      const { results } = await rpc.call(CHAT_RPC.search, { q, limit: 20 }, caller);
      const took = performance.now() - t0;
      samples.push(took);
      slowest.push({ q, took });
      found += results.length;
    }
    slowest.sort((a, b) => b.took - a.took);
    // What the slowest were: PostgreSQL's estimate against the true count, and each plan's time.
    if (process.env.BENCH_SEARCH_EXPLAIN) {
      const chat = require('./libs/contracts/dist/chat/index.js');
      const { ownedQuery } = require('./services/chat/dist/search/conversation-search.repository.js');
      await db.query('SET search_path = chat');
      for (const { q } of slowest.slice(0, 8)) {
        const query = chat.searchQuery(q);
        const compiled = (
          await db.query(
            `SELECT string_agg('(' || part || ')', ' & ') AS query FROM (SELECT to_tsquery('chat_search', $1)::text AS part WHERE $1 <> '' UNION ALL SELECT search_phrase(p)::text FROM unnest($2::text[]) AS p) parts WHERE part <> ''`,
            [query.tsquery, query.phrases],
          )
        ).rows[0].query;
        const owned = ownedQuery(compiled, me);
        const estimate = (await db.query('EXPLAIN (FORMAT JSON) SELECT 1 FROM message WHERE search @@ $1::tsquery', [owned])).rows[0][
          'QUERY PLAN'
        ][0].Plan['Plan Rows'];
        const actual = (await db.query('SELECT count(*)::int AS n FROM message WHERE search @@ $1::tsquery', [owned])).rows[0].n;
        const time = async (sql) => {
          const t0 = performance.now();
          await db.query(sql, [me, owned]);
          return (performance.now() - t0).toFixed(1);
        };
        const index = await time(
          `SELECT id, created_at FROM message WHERE search @@ $2::tsquery AND user_id::text = $1::text ORDER BY created_at DESC LIMIT 200`,
        );
        const newest = await time(
          `SELECT id FROM (SELECT id, created_at, search FROM message WHERE user_id = $1::text::uuid ORDER BY created_at DESC LIMIT 10000) l WHERE search @@ $2::tsquery ORDER BY created_at DESC LIMIT 200`,
        );
        console.log(`  ${q}: estimate ${estimate}, actual ${actual}; index path ${index} ms, newest path ${newest} ms`);
      }
    }
    return {
      ...stats(samples),
      found: found / QUERIES,
      slowest: slowest.slice(0, 5).map((s) => `${s.q} ${s.took.toFixed(1)} ms`),
    };
  } finally {
    await db.end();
    await stack.close();
    // A reused database stays; the empty one made for this run goes, unless asked to keep what was seeded.
    if (process.env.BENCH_SEARCH_KEEP && !reused) console.log(`  kept the database: ${environment.database.url}`);
    else await environment.cleanup();
  }
}

if (!(await reachable(testing.machine.databaseUrl.replace(/^postgres/, 'http')))) {
  console.error(`PostgreSQL does not answer at ${testing.machine.databaseUrl} (set TEST_DATABASE_URL).`);
  process.exit(1);
}
const recorder = benchRecorder('search');
for (const transport of wanted) {
  if (transport === 'nats' && !(await reachable(testing.machine.natsUrl))) {
    console.log(`NATS does not answer at ${testing.machine.natsUrl}: skipping the NATS transport.`);
    continue;
  }
  if (!process.env.BENCH_SEARCH_DATABASE)
    console.log(`${transport}: seeding ${MINE.toLocaleString('en')} messages of one user among ${OTHERS.toLocaleString('en')}...`);
  const r = await run(transport);
  console.log(`  ${r.n} searches, ${r.found.toFixed(1)} results each; slowest: ${r.slowest.join(', ')}`);
  recorder.row(
    `search p99, a user with ${(MINE / PER_CONVERSATION).toLocaleString('en')} conversations / ${MINE.toLocaleString('en')} messages among ${OTHERS.toLocaleString('en')} others (${transport})`,
    `p99 ${r.p99.toFixed(1)} ms, p50 ${r.p50.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (${r.n} searches as typed)`,
    'at most 20 ms',
    r.p99 <= 20,
  );
}
recorder.save();
process.exit(0);
