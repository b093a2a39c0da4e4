import { haveNatsServer } from '../support/nats-server';
import { sleep, until } from '../support/until';
import { DistributedProduct, guestWithChat, haveRedisServer, sendMessage, type ReplyStreamReader } from './support/product';

const describeIf = haveNatsServer() && haveRedisServer() ? describe : describe.skip;
/** What "a few seconds" is here: the acceptance deadline twice (a retry), heartbeats, a busy machine. */
const FEW_SECONDS_MS = 8_000;

/** Every answer is a 200 stream that ends (complete, or one error then done) or a 503 with Retry-After; none waits long. */
function verdict(readers: ReplyStreamReader[]) {
  return readers.map((r) => ({
    status: r.status,
    retryAfter: r.status === 200 ? 'n/a' : Number(r.retryAfter) > 0,
    ended: r.status !== 200 || r.completed || r.endedWithOneError,
    quick: (r.endedAt ?? Infinity) < FEW_SECONDS_MS,
  }));
}

/**
 * Fault: the chat process dies at the moment replies are asked for (issue 23, item 1). Requests
 * that reached its socket are never accepted: the gateway gives a stream STREAM_ACCEPT_TIMEOUT_MS
 * (2 s) to be accepted, asks once more (another replica; here none is left, so nobody answers),
 * then answers 503 with Retry-After. Before, they waited for the 120 s idle timeout and got a 504.
 * With the gateway's defaults (idle timeout 120 s), each part of the distributed mode in its own
 * process; the figures are printed.
 */
describeIf('the chat process killed at the moment replies are asked for', () => {
  let product: DistributedProduct;
  const figures: string[] = [];

  beforeAll(async () => {
    product = await DistributedProduct.start('chatkillreq', {
      services: ['auth', 'chat'],
      env: { OFFLINE_TOKEN_DELAY_MS: '20', CHAT_GUEST_DAILY_LIMIT: '1000' },
    });
  }, 180_000);

  afterAll(async () => {
    await product?.close();
    process.stdout.write(`Chat killed at the request:\n  ${figures.join('\n  ')}\n`);
  }, 60_000);

  const chatProcess = () => product.processes.filter((p) => p.name === 'chat').at(-1)!;

  it('killed amid a flow of requests: every request is answered within seconds, a 503 with Retry-After or a stream that ends', async () => {
    const guests = await Promise.all(Array.from({ length: 40 }, () => guestWithChat(product.url)));
    const readers: ReplyStreamReader[] = [];
    let killedAt = 0;
    for (let i = 0; i < guests.length; i++) {
      readers.push(sendMessage(product.url, guests[i], `Tell me about Lisbon, request ${i}.`));
      if (i === 28) {
        killedAt = performance.now();
        void chatProcess().kill('SIGKILL');
      }
      await sleep(10);
    }
    await until('every request answered', () => readers.every((r) => r.isOver), 30_000);
    const refused = readers.filter((r) => r.status === 503);
    const slowest = Math.max(...readers.map((r) => r.endedAt ?? 0));
    const after = refused.map((r) => Math.round(r.sentAt + (r.endedAt ?? 0) - killedAt));
    figures.push(
      `flow: ${readers.length} requests over 400 ms, chat killed after the 29th: ${readers.filter((r) => r.completed).length} complete, ` +
        `${readers.filter((r) => r.status === 200 && r.endedWithOneError).length} cut short (error event), ${refused.length} answered 503 ` +
        `(${Math.max(0, ...after)} ms after the kill at the latest), slowest answer ${Math.round(slowest)} ms; statuses ${JSON.stringify(readers.map((r) => r.status))}`,
    );
    for (const answer of verdict(readers))
      expect(answer).toEqual({ ...answer, ended: true, quick: true, retryAfter: answer.status === 200 ? 'n/a' : true });
    expect(readers.every((r) => r.status === 200 || r.status === 503)).toBe(true);
  }, 120_000);

  it('dies with requests in its socket (frozen, then killed): they are asked once more, then answered 503 with Retry-After within seconds', async () => {
    await product.startService('chat');
    const guests = await Promise.all(Array.from({ length: 10 }, () => guestWithChat(product.url)));
    const chat = chatProcess();
    chat.freeze();
    const readers = guests.map((guest, i) => sendMessage(product.url, guest, `Tell me about Porto, request ${i}.`));
    await sleep(300);
    const killedAt = performance.now();
    await chat.kill('SIGKILL');
    await until('every request answered', () => readers.every((r) => r.isOver), 30_000);
    const after = readers.map((r) => Math.round(r.sentAt + (r.endedAt ?? 0) - killedAt));
    figures.push(
      `in its socket: ${readers.length} requests, statuses ${JSON.stringify(readers.map((r) => r.status))}, answered ` +
        `${Math.min(...readers.map((r) => Math.round(r.endedAt ?? 0)))}-${Math.max(...readers.map((r) => Math.round(r.endedAt ?? 0)))} ms after they were sent ` +
        `(${Math.max(...after)} ms after the kill at the latest), Retry-After ${JSON.stringify([...new Set(readers.map((r) => r.retryAfter))])}`,
    );
    for (const reader of readers) {
      expect({
        status: reader.status,
        retryAfter: Number(reader.retryAfter) > 0,
        quick: (reader.endedAt ?? Infinity) < FEW_SECONDS_MS,
      }).toEqual({
        status: 503,
        retryAfter: true,
        quick: true,
      });
      expect(JSON.parse(reader.body)).toEqual({ detail: expect.any(String) });
    }
  }, 120_000);

  it('a chat process started again is answered again once the circuit lets a probe through (RPC_BREAKER_OPEN_MS)', async () => {
    await product.startService('chat');
    const started = performance.now();
    const guest = await until('a conversation created', async () => guestWithChat(product.url).catch(() => undefined), 15_000, 250);
    const reader = await until(
      'a complete reply',
      async () => {
        const attempt = sendMessage(product.url, guest, 'Hello again.');
        await attempt.finished;
        return attempt.completed ? attempt : undefined;
      },
      15_000,
      250,
    );
    figures.push(`recovery: a complete reply ${Math.round(performance.now() - started)} ms after chat was ready again`);
    expect(reader.completed).toBe(true);
  }, 120_000);
});
