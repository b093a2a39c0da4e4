import { haveNatsServer } from '../support/nats-server';
import { until } from '../support/until';
import { DistributedProduct, guestWithChat, haveRedisServer, sendMessage, type ReplyStreamReader } from './support/product';

/**
 * Rollouts under load: the distributed mode on its own NATS, Redis and database, each part its own
 * process, replies streaming with a slow offline model. A SIGTERM (what Kubernetes sends during a
 * rollout) must cut no reply: the process stops taking work, finishes what is in flight, then exits 0.
 * Short by default; FAULT_LONG=1 streams more replies at once.
 */
const LONG = process.env.FAULT_LONG === '1';
const STREAMS = LONG ? 24 : 6;

const describeIf = haveNatsServer() && haveRedisServer() ? describe : describe.skip;

function summary(streams: ReplyStreamReader[]): string {
  return streams.map((s, i) => `#${i} ${s.status} ${s.kinds.filter((k) => k !== 'text').join(',')}`).join('\n');
}

describeIf('rollouts: SIGTERM under load cuts no reply', () => {
  let product: DistributedProduct;

  beforeAll(async () => {
    // About 45 words at 300 ms: a reply lasts some 14 s, long enough to still be streaming when the
    // second replica is up and the first one is told to stop.
    product = await DistributedProduct.start('rollout', { services: ['auth', 'chat'], env: { OFFLINE_TOKEN_DELAY_MS: '300' } });
  }, 120_000);

  afterAll(async () => {
    await product?.close();
  }, 60_000);

  it('a chat replica stopped mid-reply finishes every reply it was writing while the other replica takes the new ones, then exits 0', async () => {
    const [first] = product.processes.filter((p) => p.name === 'chat');
    const users = await Promise.all(Array.from({ length: STREAMS + 1 }, () => guestWithChat(product.url)));
    // Every one of these replies is written by the first replica (the only one so far).
    const streams = users
      .slice(0, STREAMS)
      .map((user, i) => sendMessage(product.url, user, `Tell me about the old town of city number ${i}, please.`));
    await until('every reply under way', () => streams.every((s) => s.has('text')), 30_000);

    // The rollout: a new replica comes up, then the old one is told to stop.
    await product.startService('chat');
    expect(streams.every((s) => !s.isOver)).toBe(true);
    const stopped = first.kill('SIGTERM');
    await until('the old replica draining', () => first.log.includes('Stopped taking requests'), 10_000);
    // A message sent while the old replica drains is answered by the new one.
    const during = sendMessage(product.url, users[STREAMS], 'And what about the harbour?');

    await Promise.all([...streams, during].map((s) => s.finished));
    const cut = streams.filter((s) => !s.completed);
    process.stdout.write(
      `[rollout] chat SIGTERM with ${STREAMS} replies in flight on it: ${cut.length} cut, ${STREAMS - cut.length} completed\n`,
    );
    expect(cut.length === 0 ? '' : summary(cut)).toBe('');
    expect(during.completed).toBe(true);
    expect(await stopped).toBe(0);
    expect(first.log).toContain(`finishing ${STREAMS} in flight`);
    expect(first.log).toContain('Stopped cleanly');
  }, 90_000);

  it('an auth replica stopped under a steady load of calls (a second one up): no call fails', async () => {
    const [first] = product.processes.filter((p) => p.name === 'auth');
    await product.startService('auth');
    const failures: string[] = [];
    let calls = 0;
    let loading = true;
    // Four clients creating guests back to back (each an auth call, and a write to its database).
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (loading) {
          const res = await fetch(`${product.url}/api/v1/auth/anon`, { method: 'POST' });
          calls++;
          if (res.status !== 200) failures.push(`${res.status} ${await res.text()}`);
          else await res.arrayBuffer();
        }
      }),
    );
    await until('some calls made', () => calls >= 20, 20_000);
    const stopped = first.kill('SIGTERM');
    const code = await stopped;
    const before = calls;
    await until('more calls made after the stop', () => calls >= before + 20, 20_000);
    loading = false;
    await load;
    process.stdout.write(`[rollout] auth SIGTERM under load: ${calls} calls, ${failures.length} failed; exit code ${code}\n`);
    expect(failures).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);

  it('the gateway stopped with reply streams open lets them finish, then exits 0 (not 143)', async () => {
    const users = await Promise.all(Array.from({ length: STREAMS }, () => guestWithChat(product.url)));
    const streams = users.map((user, i) => sendMessage(product.url, user, `What is there to see in district ${i}?`));
    await until('every reply under way', () => streams.every((s) => s.has('text')), 30_000);

    const gateway = product.gateway;
    const code = await gateway.kill('SIGTERM');
    await Promise.all(streams.map((s) => s.finished));
    const cut = streams.filter((s) => !s.completed);
    process.stdout.write(`[rollout] gateway SIGTERM with ${STREAMS} streams open: ${cut.length} cut; exit code ${code}\n`);
    expect(cut.length === 0 ? '' : summary(cut)).toBe('');
    expect(code).toBe(0);
    expect(gateway.log).toContain('Stopped cleanly');

    // The next gateway serves the replies as stored.
    await product.restartGateway();
    const res = await fetch(`${product.url}/api/v1/chats/${users[0].chatId}`, { headers: { authorization: `Bearer ${users[0].token}` } });
    expect(res.status).toBe(200);
    const conversation = (await res.json()) as { messages: { sender: string; metadata: Record<string, unknown> }[] };
    expect(conversation.messages.map((m) => m.sender)).toEqual(['user', 'assistant']);
    expect(conversation.messages[1].metadata.incomplete).toBeUndefined();
  }, 90_000);
});
