import { haveNatsServer } from '../support/nats-server';
import { sleep, until } from '../support/until';
import { DistributedProduct, guestWithChat, haveRedisServer, sendMessage } from './support/product';

const describeIf = haveNatsServer() && haveRedisServer() ? describe : describe.skip;
const RPC_TIMEOUT_MS = 10_000;
const FROZEN_MS = 20_000;

interface Read {
  at: number;
  ms: number;
  status: number;
  retryAfter: string | null;
  detailOnly: boolean;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * Fault: the memory service frozen (SIGSTOP: connected, answering nothing) for 20 s under a load of
 * memory reads and replies (issue 23, item 3). The callers learn from the first timeouts that it is
 * down: the gateway's circuit for memory opens (RPC_BREAKER_FAILURES timeouts in a row), the reads
 * still waiting are answered at once, and the next ones 503 with Retry-After without being sent;
 * the chat skips personalization at once, so replies stay as fast as before. Thawed, memory is
 * asked again by the first probe. Each part in its own process; the figures are printed.
 */
describeIf('a frozen memory service slows nothing else', () => {
  let product: DistributedProduct;

  beforeAll(async () => {
    product = await DistributedProduct.start('frozenmem', {
      services: ['auth', 'chat', 'memory'],
      env: { OFFLINE_TOKEN_DELAY_MS: '0', CHAT_GUEST_DAILY_LIMIT: '100000', RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS) },
    });
  }, 180_000);

  afterAll(async () => {
    for (const p of product?.processes ?? []) p.thaw();
    await product?.close();
  }, 60_000);

  it('memory reads fail fast with Retry-After, replies keep their pace, and all comes back once it thaws', async () => {
    const memory = product.processes.find((p) => p.name === 'memory')!;
    const readers = await Promise.all(Array.from({ length: 8 }, () => guestWithChat(product.url)));
    const writers = await Promise.all(Array.from({ length: 3 }, () => guestWithChat(product.url)));

    const reply = async (who: { token: string; chatId: string }, text: string) => {
      const started = performance.now();
      const stream = sendMessage(product.url, who, text);
      await stream.finished;
      return {
        ms: performance.now() - started,
        completed: stream.completed,
        status: stream.status,
        kinds: stream.kinds.join(' ') + stream.body,
      };
    };
    const baseline: number[] = [];
    for (let i = 0; i < 6; i++) baseline.push((await reply(writers[i % writers.length], `What is good to eat in Lisbon? (${i})`)).ms);

    memory.freeze();
    const frozenAt = performance.now();
    const reads: Read[] = [];
    const replies: { at: number; ms: number; completed: boolean; status: number; kinds: string }[] = [];
    const readLoop = async (who: { token: string }) => {
      while (performance.now() - frozenAt < FROZEN_MS) {
        const at = performance.now() - frozenAt;
        const res = await fetch(`${product.url}/api/v1/user_memory/`, { headers: { authorization: `Bearer ${who.token}` } });
        const body = (await res.json()) as unknown;
        reads.push({
          at,
          ms: performance.now() - frozenAt - at,
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          detailOnly: res.status === 200 || (typeof body === 'object' && body !== null && Object.keys(body).join() === 'detail'),
        });
        if (res.status !== 200) await sleep(100);
      }
    };
    const replyLoop = async (who: { token: string; chatId: string }, n: number) => {
      for (let i = 0; performance.now() - frozenAt < FROZEN_MS; i++) {
        const at = performance.now() - frozenAt;
        replies.push({ at, ...(await reply(who, `Where should I travel next? (${n}.${i})`)) });
      }
    };
    await Promise.all([...readers.map(readLoop), ...writers.map((w, n) => replyLoop(w, n))]);

    memory.thaw();
    const thawedAt = performance.now();
    await until(
      'memory read again',
      async () =>
        (await fetch(`${product.url}/api/v1/user_memory/`, { headers: { authorization: `Bearer ${readers[0].token}` } })).status === 200,
      30_000,
      200,
    );
    const backAfter = Math.round(performance.now() - thawedAt);

    const failed = reads.filter((r) => r.status !== 200);
    const afterOpen = reads.filter((r) => r.at > RPC_TIMEOUT_MS + 1_000);
    const lateReplies = replies.filter((r) => r.at > 3 * 3_000 + 1_000);
    process.stdout.write(
      `Frozen memory (${FROZEN_MS / 1000} s, RPC timeout ${RPC_TIMEOUT_MS / 1000} s): ${reads.length} reads, statuses ` +
        `${JSON.stringify(Object.fromEntries([...new Set(reads.map((r) => r.status))].map((s) => [s, reads.filter((r) => r.status === s).length])))}, ` +
        `longest wait ${Math.round(Math.max(...reads.map((r) => r.ms)))} ms, after the circuit opened: longest ${Math.round(Math.max(...afterOpen.map((r) => r.ms)))} ms ` +
        `(${afterOpen.length} reads); replies: p50 ${Math.round(median(baseline))} ms before, ${Math.round(median(replies.map((r) => r.ms)))} ms while frozen ` +
        `(${Math.round(median(lateReplies.map((r) => r.ms)))} ms once memory was known down, ${replies.length} replies, ` +
        `${replies.filter((r) => !r.completed).length} not complete ${JSON.stringify(replies.filter((r) => !r.completed).slice(0, 3))}); memory read again ${backAfter} ms after it thawed\n`,
    );

    expect(reads.filter((r) => r.status === 500)).toEqual([]);
    for (const r of failed)
      expect({ status: [503, 504].includes(r.status), retryAfter: Number(r.retryAfter) > 0, detailOnly: r.detailOnly }).toEqual({
        status: true,
        retryAfter: true,
        detailOnly: true,
      });
    // Nobody waits longer than one RPC timeout, and once the circuit is open, nobody waits more than its probe.
    expect(Math.max(...reads.map((r) => r.ms))).toBeLessThan(RPC_TIMEOUT_MS + 2_000);
    expect(afterOpen.length).toBeGreaterThan(20);
    expect(Math.max(...afterOpen.map((r) => r.ms))).toBeLessThan(2_500);
    // Replies all complete; once memory is known down they are as quick as before (not 3 s slower).
    expect(replies.every((r) => r.completed)).toBe(true);
    expect(lateReplies.length).toBeGreaterThan(3);
    expect(median(lateReplies.map((r) => r.ms))).toBeLessThan(median(baseline) + 1_500);
  }, 180_000);
});
