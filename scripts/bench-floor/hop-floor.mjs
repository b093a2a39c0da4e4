// The floor of the hop over NATS (issue 28): the same two answers as the product's rows, with
// nothing around them. Plain node:http in the bench's own process (as the embedded stack is), one
// NATS connection (as the embedded stack has):
//   GET /local → the probe's answer, written at once (the floor of the baseline);
//   GET /echo  → the request's envelope (as the RPC client writes it) sent with the client's own
//     `nc.request` to a subscriber on the same connection, which parses it and answers the probe's
//     reply envelope; the answer's data is written to the client (the floor of the hop).
// No framework, no validation, no headers: what a request/reply through nats-server costs when the
// code around it costs nothing.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '../../..');
const { connect } = createRequire(join(root, 'package.json'))('@nats-io/transport-node');

export async function startHopFloor(natsUrl) {
  const nc = await connect({ servers: natsUrl, name: 'bench-hop-floor', noAsyncTraces: true });
  const subject = `bench.hop-floor.${process.pid}.echo`;
  nc.subscribe(subject, {
    queue: 'bench-hop-floor',
    callback: (error, msg) => {
      if (error) return;
      const { caller, data } = JSON.parse(Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.length).toString('utf8'));
      msg.respond(
        Buffer.from(JSON.stringify({ ok: true, data: { text: data.text, request_id: caller.request_id, user_id: caller.user_id } })),
      );
    },
  });
  await nc.flush();
  let next = 0;
  const answer = (res, body) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://floor');
    const text = url.searchParams.get('text') ?? 'pong';
    if (url.pathname.endsWith('/local')) return answer(res, JSON.stringify({ text, request_id: 'local', user_id: null }));
    const caller = { user_id: null, is_anon: false, session_id: null, request_id: `floor-${next++}` };
    nc.request(subject, Buffer.from(JSON.stringify({ caller, data: { text } })), { timeout: 10_000 }).then(
      (msg) => {
        const reply = JSON.parse(Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.length).toString('utf8'));
        answer(res, JSON.stringify(reply.data));
      },
      () => {
        res.writeHead(503);
        res.end();
      },
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await nc.close();
    },
  };
}
