// The load of the streaming benches (bench-stream, bench-start), in a process of its own: the fake
// OpenAI server (driven through the real SDK by the chat service) and the HTTP clients. The product
// under test runs in the bench's process alone, as it would on a server, so its CPU and event-loop
// figures are its own, not shared with hundreds of clients and the fake model. The fake and the
// clients share this process's clock, so "when the model wrote a token" and "when the client read
// it" compare exactly.
//
// `spawnLoad()` starts it and answers a handle; the child speaks over the IPC channel:
//   { type: 'reply', reply: { firstDelayMs, text?, intervalMs?, holdMs?, silent? } }  what the model answers
//   { type: 'stream', base, token, chats, markers }  each client streams a whole reply
//   { type: 'start', base, token, chats, markers }   each client reads up to the first text delta
//   { type: 'stop' }
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from './lib.mjs';

/** Starts the load process; resolves once its fake model listens. */
export async function spawnLoad() {
  const child = fork(fileURLToPath(import.meta.url), ['child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let nextId = 0;
  const waiting = new Map();
  child.on('message', (message) => {
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(message.error));
    else pending.resolve(message.result);
  });
  child.once('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`the load process exited (${code})`));
    waiting.clear();
  });
  const ask = (request) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      waiting.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  const { baseURL } = await ask({ type: 'ready' });
  return {
    baseURL,
    /** What the fake model answers from now on (and forgets what it recorded). */
    reply: (reply) => ask({ type: 'reply', reply }),
    /** Streams whole replies; per delta, when the model wrote it against when the client read it. */
    stream: (base, token, chats, markers) => ask({ type: 'stream', base, token, chats, markers }),
    /** Reads each reply up to its first text delta; POST → first delta minus the model's own delay. */
    start: (base, token, chats, markers) => ask({ type: 'start', base, token, chats, markers }),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ type: 'stop' }).catch(() => undefined);
      await exited;
    },
  };
}

/**
 * One client: POST a message, read the SSE, note when each text delta arrives (all of them, or the
 * first). Plain node:http, not fetch: the load process must cost little beside the product.
 */
function post(base, token, chatId, marker, firstOnly) {
  const url = new URL(`${base}/api/v1/chats/${chatId}/messages`);
  const body = JSON.stringify({ content: marker });
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.setEncoding('utf8');
        if (res.statusCode !== 200) {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            const refused = res.statusCode === 503 || res.statusCode === 429;
            resolve({ started, arrivals: [], ...(refused ? { refused: true } : { failed: `${res.statusCode} ${text}` }) });
          });
          return;
        }
        const arrivals = [];
        let buffer = '';
        let received = 0;
        res.on('data', (chunk) => {
          if (firstOnly && arrivals.length) return; // the rest is read to its end, not parsed
          const now = performance.now();
          buffer += chunk;
          const blocks = buffer.split('\n\n');
          buffer = blocks.pop();
          // A text event may carry several of the model's deltas (coalesced): each is counted by its
          // text, so the k-th delta arrives with the event that brings its last character.
          for (const block of blocks) {
            if (!block.startsWith('event: text\n')) continue;
            received += JSON.parse(block.slice(block.indexOf('\ndata: ') + 7)).delta.length;
            arrivals.push({ at: now, received });
          }
        });
        res.on('end', () => resolve({ started, arrivals }));
        res.on('error', (error) => resolve({ started, arrivals, failed: String(error) }));
      },
    );
    req.on('error', (error) => resolve({ started, arrivals: [], failed: String(error) }));
    req.end(body);
  });
}

/** Keep-alive connections, as many as there are clients at once. */
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

async function child() {
  const require = createRequire(join(root, 'package.json'));
  const testing = require('./libs/testing/dist/index.js');
  const fake = new testing.FakeOpenAI();
  await fake.start();

  /** For each client, the model's request and the times it wrote its text deltas. */
  const written = (markers) => {
    const requests = fake.requests('responses').filter((r) => r.stream);
    return markers.map((marker) => {
      // Quoted first: marker "x-1" is inside "x-10" too.
      const request =
        requests.find((r) => JSON.stringify(r.body.input).includes(JSON.stringify(marker))) ??
        requests.find((r) => JSON.stringify(r.body.input).includes(marker));
      if (!request) return undefined;
      const emitted = fake.emitted(request.requestId).filter((e) => e.event === 'response.output_text.delta');
      let length = 0;
      const deltas = emitted.map((e) => e.at);
      // How much text the client has once it has delta k.
      const through = emitted.map((e) => (length += e.data.delta.length));
      return { at: request.at, deltas, through };
    });
  };

  const handlers = {
    ready: () => ({ baseURL: fake.baseURL }),
    reply: ({ reply }) => {
      fake.reset();
      const steps = reply.silent
        ? [{ delayMs: 20 * 60_000 }]
        : [
            { delayMs: reply.firstDelayMs },
            { text: reply.text, intervalMs: reply.intervalMs },
            // The reply goes on after a pause (a start measured apart from the reply's end).
            ...(reply.holdMs ? [{ delayMs: reply.holdMs }, { text: ' end' }] : []),
          ];
      fake.setDefaultReply('responses', () => ({ steps }));
      return null;
    },
    stream: async ({ base, token, chats, markers }) => {
      const results = await Promise.all(markers.map((marker, i) => post(base, token, chats[i], marker, false)));
      const models = written(markers);
      const added = [];
      const steady = [];
      const firstOverhead = [];
      // When the last stream had its first delta: every start is behind us.
      const allStarted = Math.max(...results.map((r) => r.arrivals[0]?.at ?? -Infinity));
      results.forEach(({ started, arrivals }, i) => {
        const model = models[i];
        if (!model) return;
        let j = 0;
        model.deltas.forEach((at, k) => {
          while (j < arrivals.length && arrivals[j].received < model.through[k]) j++;
          if (j === arrivals.length) return;
          added.push(arrivals[j].at - at);
          if (at > allStarted) steady.push(arrivals[j].at - at);
        });
        if (arrivals.length && model.deltas.length) firstOverhead.push(arrivals[0].at - started - (model.deltas[0] - model.at));
      });
      const failures = results.filter((r) => r.failed).map((r) => r.failed);
      // The steady window, in epoch ms (comparable across processes): every stream started → the last delta.
      const lastArrival = Math.max(...results.map((r) => r.arrivals.at(-1)?.at ?? -Infinity));
      const window = { from: performance.timeOrigin + allStarted, to: performance.timeOrigin + lastArrival };
      return { added, steady, firstOverhead, refused: results.filter((r) => r.refused).length, failures, window };
    },
    start: async ({ base, token, chats, markers }) => {
      const results = await Promise.all(markers.map((marker, i) => post(base, token, chats[i], marker, true)));
      const models = written(markers);
      const overhead = [];
      results.forEach(({ started, arrivals }, i) => {
        const model = models[i];
        if (model && arrivals.length && model.deltas.length) overhead.push(arrivals[0].at - started - (model.deltas[0] - model.at));
      });
      const failures = results.filter((r) => r.failed || r.refused).map((r) => r.failed ?? 'refused (503 or 429)');
      // From the first POST to the last first delta, in epoch ms (comparable across processes).
      const firsts = results.filter((r) => r.arrivals.length).map((r) => r.arrivals[0].at);
      const window = {
        from: performance.timeOrigin + Math.min(...results.map((r) => r.started)),
        to: performance.timeOrigin + Math.max(...firsts),
      };
      return { overhead, failures, window };
    },
    stop: async () => {
      await fake.stop(); // ends the silent model calls
      setImmediate(() => process.exit(0));
      return null;
    },
  };

  process.on('message', async (message) => {
    try {
      // How busy this process was meanwhile: when it is saturated, its own delays are in the figures.
      const cpu = process.cpuUsage();
      const started = performance.now();
      const lag = monitorEventLoopDelay({ resolution: 5 });
      lag.enable();
      const result = await handlers[message.type](message);
      lag.disable();
      const used = process.cpuUsage(cpu);
      if (result && (message.type === 'stream' || message.type === 'start'))
        result.load = { cpuShare: (used.user + used.system) / 1000 / (performance.now() - started), lagP99Ms: lag.percentile(99) / 1e6 };
      process.send({ id: message.id, result });
    } catch (error) {
      process.send({ id: message.id, error: String(error?.stack ?? error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[2] === 'child') await child();
