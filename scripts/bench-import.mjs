#!/usr/bin/env node
// `node scripts/bench-import.mjs` (`npm run bench:import`): importing a large ChatGPT export into
// the built product (`npm start`'s embedded mode, in a child process of its own with its own data).
// Generates the export first, streaming to a temporary file (BENCH_IMPORT_CONVERSATIONS, default
// 5,000 conversations of 24 messages each, one regenerated reply each: ~100+ MB of JSON),
// uploads it through the gateway, starts the import, follows it, and prints conversations imported
// per second and the product's peak RSS (VmHWM of its process: the zip is never held in memory).
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Zip, ZipDeflate } from 'fflate';
import { benchRecorder } from './bench-record.mjs';
import { build } from './build.mjs';
import { guestToken, startBuiltProduct } from './lib.mjs';

const CONVERSATIONS = Number(process.env.BENCH_IMPORT_CONVERSATIONS ?? 5000);
const MESSAGES = 24;
/** What an import may add to the product's memory, whatever the export's size. */
const ADDED_MB_GOAL = 256;
const WORDS = (
  'the a of to and in is it you that he was for on are with as his they be at one have this from or had by hot word but what some we can ' +
  'out other were all there when up use your how said an each she which do their time if will way about many then them write would like ' +
  'so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call ' +
  'first who may down side been now find any new work part take get place made live where after back little only round man year came show ' +
  'lisbon porto recipe garden python budget travel museum train weekend coffee piano guitar poem letter report invoice meeting deadline'
).split(' ');

let seed = 20261126;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ') + '.';

function conversation(i) {
  const t0 = 1_735_000_000 + i * 600;
  const mapping = { root: { id: 'root', parent: null, children: [], message: null } };
  let parent = 'root';
  for (let m = 0; m < MESSAGES; m++) {
    const id = `c${i}-m${m}`;
    const role = m % 2 === 0 ? 'user' : 'assistant';
    const words = role === 'user' ? 8 + Math.floor(random() * 30) : 80 + Math.floor(random() * 160);
    mapping[id] = {
      id,
      parent,
      children: [],
      message: {
        id,
        author: { role },
        create_time: t0 + m * 10,
        content: { content_type: 'text', parts: [sentence(words)] },
        metadata: {},
        recipient: 'all',
      },
    };
    mapping[parent].children.push(id);
    // One regenerated reply per conversation: a sibling of the first answer.
    if (m === 1) {
      const alt = `c${i}-alt`;
      mapping[alt] = {
        id: alt,
        parent,
        children: [],
        message: { ...mapping[id].message, id: alt, content: { content_type: 'text', parts: [sentence(80)] } },
      };
      mapping[parent].children.push(alt);
    }
    parent = id;
  }
  return { id: `bench-${i}`, title: `Bench conversation ${i}`, create_time: t0, update_time: t0 + 300, mapping, current_node: parent };
}

/** Writes the export zip streaming (fflate's Zip): never the whole JSON in memory. */
async function writeExport(path) {
  const out = createWriteStream(path);
  const zip = new Zip((error, chunk, final) => {
    if (error) throw error;
    out.write(chunk);
    if (final) out.end();
  });
  const entry = new ZipDeflate('conversations.json', { level: 6 });
  zip.add(entry);
  const encoder = new TextEncoder();
  let raw = 0;
  const push = (text, final = false) => {
    const bytes = encoder.encode(text);
    raw += bytes.length;
    entry.push(bytes, final);
  };
  push('[');
  for (let i = 0; i < CONVERSATIONS; i++) {
    push((i ? ',' : '') + JSON.stringify(conversation(i)));
    if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  push(']', true);
  zip.end();
  await new Promise((resolve) => out.on('finish', resolve));
  return raw;
}

const peakRssMb = (pid) => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
};

build({ quiet: true });
const work = mkdtempSync(join(tmpdir(), 'bench-import-'));
const recorder = benchRecorder('import');
let product;
try {
  const zipPath = join(work, 'export.zip');
  console.log(`Generating a ChatGPT export of ${CONVERSATIONS.toLocaleString()} conversations...`);
  const raw = await writeExport(zipPath);
  const zipped = statSync(zipPath).size;
  console.log(`  conversations.json ${(raw / 1e6).toFixed(1)} MB, zip ${(zipped / 1e6).toFixed(1)} MB`);
  product = await startBuiltProduct({ RATE_LIMIT_PER_MINUTE: '100000' }, 'import');
  const token = await guestToken(product.url);
  const restingMb = peakRssMb(product.pid);
  const auth = { authorization: `Bearer ${token}` };
  const uploadStarted = performance.now();
  const form = new FormData();
  form.append('file', await openAsBlob(zipPath, { type: 'application/zip' }), 'export.zip');
  const uploaded = await fetch(`${product.url}/api/v1/imports/uploads`, { method: 'POST', headers: auth, body: form });
  if (uploaded.status !== 201) throw new Error(`upload answered ${uploaded.status}: ${await uploaded.text()}`);
  const uploadSeconds = (performance.now() - uploadStarted) / 1000;
  const { object_store_object_id } = await uploaded.json();
  const started = performance.now();
  const start = await fetch(`${product.url}/api/v1/imports/`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ object_store_object_id }),
  });
  if (start.status !== 202) throw new Error(`start answered ${start.status}: ${await start.text()}`);
  const { import_id } = await start.json();
  let state;
  for (;;) {
    state = await (await fetch(`${product.url}/api/v1/imports/${import_id}`, { headers: auth })).json();
    if (state.status === 'done' || state.status === 'failed') break;
    process.stdout.write(`\r  ${state.status}: ${state.conversations_done} of ${state.conversations_total ?? '?'}   `);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const seconds = (performance.now() - started) / 1000;
  console.log('');
  if (state.status !== 'done') throw new Error(`The import failed: ${state.error}`);
  const perSecond = state.conversations_imported / seconds;
  const rss = peakRssMb(product.pid);
  recorder.row(
    `conversations imported per second (ChatGPT export: ${CONVERSATIONS.toLocaleString()} conversations, ${state.messages_imported.toLocaleString()} messages, zip ${(zipped / 1e6).toFixed(0)} MB, JSON ${(raw / 1e6).toFixed(0)} MB)`,
    `${perSecond.toFixed(1)} conversations/s (${seconds.toFixed(1)} s; upload ${uploadSeconds.toFixed(1)} s)`,
    'no goal yet (measured)',
    null,
  );
  recorder.row(
    'memory of the product while importing it (peak RSS, and above its peak at rest before)',
    `${rss} MB peak, ${rss - restingMb} MB above the ${restingMb} MB before the import`,
    // Bounded whatever the export's size: the JSON is never held whole (one conversation at a time).
    `at most ${ADDED_MB_GOAL} MB added, whatever the export's size (here ${Math.round(raw / 1e6)} MB of JSON)`,
    rss - restingMb <= ADDED_MB_GOAL,
  );
  recorder.save();
} finally {
  await product?.stop();
  rmSync(work, { recursive: true, force: true });
}
