// The floor of the streaming benches: what relaying a model's reply costs with nothing else around
// it. Plain node:http, forked by bench-stream and bench-start in the same run, driven by the same
// clients (bench-load.mjs) against the same fake model, so that the product's rows are read as
// ratios against it (issue 28).
//   bare relay (bench-stream): POST /api/v1/chats/{id}/messages → one Responses request to the
//     model (stream: true), its SSE read with a minimal parser, each text delta written to the
//     client at once as `event: text` (one write per delta), then `done`.
//   bare start (bench-start, FLOOR_DATABASE_URL set): the same, after one INSERT of the message on
//     the same PostgreSQL (pg, a pool of 10: the product's chat service has 20, but the shared
//     machine's PostgreSQL runs out of connections; the CPU per start does not depend on it).
// It speaks over the IPC channel: { type: 'cpu' } answers its process.cpuUsage(), { type: 'cpuBetween',
// from, to } the CPU µs it used between two instants (epoch ms); it says
// { ready: url } once it listens. No auth, no validation, no storage of the reply: the floor.
import { Agent, createServer, request } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sampleCpu } from './floor.mjs';

const root = join(fileURLToPath(import.meta.url), '../../..');
const model = new URL(process.env.FLOOR_MODEL_URL); // the fake's base URL, …/v1
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
let pool;
if (process.env.FLOOR_DATABASE_URL) {
  const { Pool } = createRequire(join(root, 'package.json'))('pg');
  pool = new Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: 10 });
  pool.on('error', () => undefined);
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_floor_messages (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), chat_id text NOT NULL, content text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
}

const DELTA = 'event: response.output_text.delta\n';
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', async () => {
    const { content } = JSON.parse(body);
    if (pool) {
      try {
        await pool.query('INSERT INTO bench_floor_messages (chat_id, content) VALUES ($1, $2)', [req.url.split('/')[4], content]);
      } catch (error) {
        res.writeHead(503).end(String(error)); // counted as refused by the clients
        return;
      }
    }
    const ask = JSON.stringify({ model: 'floor', input: [{ role: 'user', content }], stream: true });
    const upstream = request(
      {
        host: model.hostname,
        port: model.port,
        path: `${model.pathname}/responses`,
        method: 'POST',
        agent,
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json', 'content-length': Buffer.byteLength(ask) },
      },
      (answer) => {
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        answer.setEncoding('utf8');
        let buffer = '';
        answer.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!block.startsWith(DELTA)) continue;
            const { delta } = JSON.parse(block.slice(block.indexOf('data: ') + 6));
            res.write(`event: text\ndata: ${JSON.stringify({ delta })}\n\n`);
          }
        });
        answer.on('end', () => res.end('event: done\ndata: {}\n\n'));
      },
    );
    upstream.end(ask);
  });
});
server.listen(0, '127.0.0.1', () => process.send({ ready: `http://127.0.0.1:${server.address().port}` }));
const sampler = sampleCpu();
process.on('message', (message) => {
  if (message.type === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message.type === 'cpuBetween') process.send({ cpuBetween: sampler.between(message.from, message.to) });
});
process.on('disconnect', async () => {
  await pool?.query('DROP TABLE IF EXISTS bench_floor_messages').catch(() => undefined);
  process.exit(0);
});
