import { haveNatsServer } from '../support/nats-server';
import { until } from '../support/until';
import { CuttableProxy, DistributedProduct, guestWithChat, haveRedisServer, sendMessage } from './support/product';

/**
 * Outages, each part of the distributed mode in its own process on its own NATS, Redis and
 * database: the chat process killed mid-reply (no replica left), its database cut off, NATS
 * stopped, Redis stopped. Clients get a terminal error or a 503 `{detail}` with Retry-After within
 * seconds, never a hang and never a 500, and everything works again once the part is back. The
 * measured figures are printed. Short by default; FAULT_LONG=1 opens more streams.
 */
const LONG = process.env.FAULT_LONG === '1';
const STREAMS = LONG ? 20 : 5;
/** The gateway's longest wait for a silent stream: what a dead producer cost before heartbeats. */
const IDLE_TIMEOUT_MS = 30_000;
const RPC_TIMEOUT_MS = 10_000;

const describeIf = haveNatsServer() && haveRedisServer() ? describe : describe.skip;

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
  ms: number;
}

async function call(product: DistributedProduct, token: string, path: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${product.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text
  }
  return { status: res.status, body, retryAfter: res.headers.get('retry-after'), ms: Math.round(performance.now() - started) };
}

const isUnavailable = (answer: Answer) =>
  answer.status === 503 &&
  typeof (answer.body as { detail?: unknown }).detail === 'string' &&
  Object.keys(answer.body as object).length === 1 &&
  Number(answer.retryAfter) > 0;

describeIf('outages: fast failure, one terminal event, recovery', () => {
  let product: DistributedProduct;
  let pg: CuttableProxy;
  let chatEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    product = await DistributedProduct.start('outage', {
      services: ['auth'],
      env: { OFFLINE_TOKEN_DELAY_MS: '150', RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
      gatewayEnv: { STREAM_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) },
    });
    // The chat service reaches its database through a proxy the test can cut.
    const database = new URL(product.environment.database.url);
    pg = await CuttableProxy.start({ host: database.hostname, port: Number(database.port || 5432) });
    database.port = String(pg.port);
    chatEnv = { DATABASE_URL: database.toString() };
    await product.startService('chat', chatEnv);
  }, 120_000);

  afterAll(async () => {
    await pg?.cut();
    await product?.close();
  }, 60_000);

  it('the chat process killed mid-reply with no other replica: every open stream ends with exactly one error, within seconds', async () => {
    const users = await Promise.all(Array.from({ length: STREAMS }, () => guestWithChat(product.url)));
    const streams = users.map((user, i) => sendMessage(product.url, user, `Describe the coast of region ${i}, please.`));
    await until('every reply under way', () => streams.every((s) => s.has('text')), 30_000);

    const chat = product.processes.find((p) => p.name === 'chat')!;
    const killedAt = streams.map((s) => s.now());
    await chat.kill('SIGKILL');
    await Promise.all(streams.map((s) => s.finished));

    const detection = streams.map((s, i) => Math.round(s.events.find((e) => e.event === 'error')!.at - killedAt[i]));
    process.stdout.write(
      `[outage] chat SIGKILL: ${STREAMS} open streams ended with one error after ${Math.min(...detection)}-${Math.max(...detection)} ms (idle timeout ${IDLE_TIMEOUT_MS} ms)\n`,
    );
    for (const stream of streams) {
      expect(stream.endedWithOneError).toBe(true);
      expect((stream.events.find((e) => e.event === 'error')!.data as { detail: string }).detail).toMatch(
        /chat service stopped responding/,
      );
    }
    // Noticed by the heartbeats, long before the idle timeout (which is what it took before).
    expect(Math.max(...detection)).toBeLessThan(IDLE_TIMEOUT_MS / 2);

    // With no chat process left, a new message is refused at once: 503 {detail}, Retry-After.
    const refused = sendMessage(product.url, users[0], 'Anyone there?');
    await refused.finished;
    expect(refused.status).toBe(503);
    expect(Object.keys(JSON.parse(refused.body))).toEqual(['detail']);

    await product.startService('chat', chatEnv);
    const again = sendMessage(product.url, users[0], 'Back again?');
    await again.finished;
    expect(again.completed).toBe(true);
  }, 90_000);

  it('the database unreachable: 503 with Retry-After (not 500) at once, /readyz says the database is down, and it recovers', async () => {
    const user = await guestWithChat(product.url);
    expect((await call(product, user.token, '/api/v1/chats')).status).toBe(200);

    await pg.cut();
    const down = await call(product, user.token, '/api/v1/chats');
    process.stdout.write(
      `[outage] database cut off: ${down.status} in ${down.ms} ms, Retry-After ${down.retryAfter}, ${JSON.stringify(down.body)}\n`,
    );
    expect(isUnavailable(down)).toBe(true);
    expect(down.ms).toBeLessThan(RPC_TIMEOUT_MS / 2);
    const ready = await fetch(`${product.url}/readyz`);
    const report = (await ready.json()) as { status: string; checks: Record<string, { status: string; detail?: string }> };
    expect(ready.status).toBe(503);
    expect(report.checks.database).toMatchObject({ status: 'down', detail: expect.stringMatching(/^chat: /) });
    expect(report.checks.chat).toMatchObject({ status: 'down', detail: expect.stringMatching(/^database: /) });
    expect(report.checks.bus.status).toBe('up');
    expect(report.checks.cache.status).toBe('up');

    await pg.restore();
    const restoredAt = performance.now();
    await until('the chats answered again', async () => (await call(product, user.token, '/api/v1/chats')).status === 200, 30_000);
    process.stdout.write(`[outage] database back: answering again after ${Math.round(performance.now() - restoredAt)} ms\n`);
  }, 60_000);

  it('NATS stopped: calls answer 503 with Retry-After at once, open streams end with one error, and all is well again once NATS is back', async () => {
    const user = await guestWithChat(product.url);
    const other = await guestWithChat(product.url);
    expect((await call(product, user.token, '/api/v1/chats')).status).toBe(200);
    const stream = sendMessage(product.url, other, 'Tell me about the mountains, please.');
    await until('the reply under way', () => stream.has('text'), 30_000);

    const stoppedAt = stream.now();
    await product.nats.stop();
    const answers: Answer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await call(product, user.token, '/api/v1/chats'));
    await stream.finished;
    const errorAt = stream.events.find((e) => e.event === 'error')?.at;
    const streamEnd = errorAt === undefined ? Infinity : Math.round(errorAt - stoppedAt);
    process.stdout.write(
      `[outage] NATS stopped: ${answers.map((a) => `${a.status} in ${a.ms} ms`).join(', ')} (Retry-After ${answers[0].retryAfter}); ` +
        `the open stream ended with an error ${streamEnd} ms after the stop\n`,
    );
    for (const answer of answers) {
      expect(isUnavailable(answer)).toBe(true);
      expect(answer.ms).toBeLessThan(RPC_TIMEOUT_MS / 2);
    }
    expect(stream.endedWithOneError).toBe(true);
    expect(streamEnd).toBeLessThan(IDLE_TIMEOUT_MS / 2);
    const ready = await fetch(`${product.url}/readyz?scope=gateway`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, { status: string }> }).checks.bus.status).toBe('down');

    await product.nats.startAgain();
    const restartedAt = performance.now();
    await until('the chats answered again', async () => (await call(product, user.token, '/api/v1/chats')).status === 200, 30_000);
    process.stdout.write(`[outage] NATS back: answering again after ${Math.round(performance.now() - restartedAt)} ms\n`);
    const again = sendMessage(product.url, other, 'And the lakes?');
    await again.finished;
    expect(again.completed).toBe(true);
  }, 90_000);

  it('Redis stopped: the cache is only a fast path (sessions are asked of auth, the rate limit lets calls through), a call that needs it answers 503 with Retry-After (not 500), and it recovers', async () => {
    const user = await guestWithChat(product.url);
    expect((await call(product, user.token, '/api/v1/chats')).status).toBe(200);
    const newGuest = async (): Promise<Answer> => {
      const started = performance.now();
      const res = await fetch(`${product.url}/api/v1/auth/anon`, { method: 'POST' });
      const text = await res.text();
      return {
        status: res.status,
        body: JSON.parse(text) as unknown,
        retryAfter: res.headers.get('retry-after'),
        ms: Math.round(performance.now() - started),
      };
    };

    await product.redis.stop();
    // Reading what one has needs no cache: the session is checked against the auth service's database.
    const reads: Answer[] = [];
    for (let i = 0; i < 3; i++) reads.push(await call(product, user.token, '/api/v1/chats'));
    // A new guest is counted against its address in the cache: without it, a fast 503.
    const guests: Answer[] = [];
    for (let i = 0; i < 3; i++) guests.push(await newGuest());
    process.stdout.write(
      `[outage] Redis stopped: chats ${reads.map((a) => `${a.status} in ${a.ms} ms`).join(', ')}; new guests ${guests.map((a) => `${a.status} in ${a.ms} ms`).join(', ')} (Retry-After ${guests[0].retryAfter})\n`,
    );
    for (const answer of reads) expect(answer.status).toBe(200);
    for (const answer of guests) {
      expect(isUnavailable(answer)).toBe(true);
      expect(answer.ms).toBeLessThan(RPC_TIMEOUT_MS / 2);
    }
    const ready = await fetch(`${product.url}/readyz?scope=gateway`);
    expect(((await ready.json()) as { checks: Record<string, { status: string }> }).checks.cache.status).toBe('down');

    await product.redis.startAgain();
    const restartedAt = performance.now();
    await until('new guests made again', async () => (await newGuest()).status === 200, 30_000);
    process.stdout.write(`[outage] Redis back: answering again after ${Math.round(performance.now() - restartedAt)} ms\n`);
  }, 60_000);
});
