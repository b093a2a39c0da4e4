import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startMetricsServer, type MetricsServer } from '@app/platform';
import { ApiClient } from '../support/api-client';
import { OwnNatsServer, haveNatsServer } from '../support/nats-server';
import { postStream } from '../support/sse';
import { startTestStack, type TestStack } from '../support/test-stack';
import { sleep, until } from '../support/until';

/**
 * Fault: NATS restarts (an upgrade, a node drained: SIGTERM) or dies (SIGKILL, twice: what
 * JetStream had not written is lost) in the middle of a stream of exchanges. The product runs on its
 * own NATS server (JetStream on disk) and its own database; guests chat with the offline model
 * while the server is stopped and started again on the same port and store. Afterwards: every reply
 * a client saw is stored, and every stored complete exchange was learnt from by the memory service
 * exactly once (its processed events), none lost, none twice. The events that came to memory again
 * (assistant_events_redelivered_total) are counted and printed.
 *
 * Short by default (200 exchanges, one restart, two kills); FAULT_LONG=1 runs 1,500 with three
 * (FAULT_EXCHANGES sets the number).
 */
const LONG = process.env.FAULT_LONG === '1';
const CLIENTS = LONG ? 8 : 4;
const EXCHANGES = Number(process.env.FAULT_EXCHANGES ?? (LONG ? 1_500 : 200));
const OUTAGE_MS = 1_500;

(haveNatsServer() ? describe : describe.skip).each([
  { signal: 'SIGTERM' as const, restarts: LONG ? 3 : 1, title: 'a NATS restart (SIGTERM)' },
  { signal: 'SIGKILL' as const, restarts: LONG ? 3 : 2, title: 'NATS killed (SIGKILL)' },
])('$title under a stream of exchanges', ({ signal, restarts: RESTARTS }) => {
  let nats: OwnNatsServer;
  let booted: TestStack;
  let metrics: MetricsServer;

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    metrics = await startMetricsServer({ serviceName: 'nats-restart-test', port: 0, host: '127.0.0.1' });
    booted = await startTestStack('natsrestart', 'nats', {
      NATS_URL: nats.url,
      OFFLINE_TOKEN_DELAY_MS: '0',
      CHAT_GUEST_DAILY_LIMIT: '1000000',
      GUESTS_PER_IP_PER_HOUR: '1000',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RPC_TIMEOUT_MS: '3000',
    });
  }, 60_000);

  afterAll(async () => {
    await booted?.close();
    await nats?.close();
    await metrics?.close();
  }, 60_000);

  it(
    'loses no exchange and learns from each exactly once',
    async () => {
      const { stack, db, environment } = booted;
      let attempted = 0;
      const acknowledged: string[] = [];
      const failures = new Map<string, number>();
      const refusals: { status: number; retryAfter: string | null; body: unknown }[] = [];

      const client = async (index: number) => {
        const api = new ApiClient(stack.url);
        await api.guest();
        let chatId: string | null = null;
        while (attempted < EXCHANGES) {
          const n = attempted++;
          let ok = false;
          try {
            chatId ??= (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
            const content = `I live in Lisbon and my sister is called Ana. Message ${n} from client ${index}.`;
            const res = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content });
            const reply = res.events.find((e) => e.event === 'assistant_message');
            ok = res.status === 200 && !!reply && !res.events.some((e) => e.event === 'error');
            if (ok) acknowledged.push(reply!.data.message_id);
            else failures.set(String(res.status), (failures.get(String(res.status)) ?? 0) + 1);
            if (res.status >= 500) refusals.push({ status: res.status, retryAfter: res.headers.get('retry-after'), body: res.json });
          } catch (error) {
            failures.set(String(error), (failures.get(String(error)) ?? 0) + 1);
          }
          // A client that was refused (the bus is down) tries again a little later, as a person would.
          if (!ok) await sleep(200);
        }
      };

      const restarts = (async () => {
        for (let r = 1; r <= RESTARTS; r++) {
          await until(
            `${r} / ${RESTARTS + 1} of the exchanges`,
            () => acknowledged.length >= (EXCHANGES * r) / (RESTARTS + 1) || attempted >= EXCHANGES,
            120_000,
          );
          await nats.stop(signal);
          await sleep(OUTAGE_MS);
          await nats.startAgain();
        }
      })();
      await Promise.all([...Array.from({ length: CLIENTS }, (_, i) => client(i)), restarts]);

      // The outboxes drain once the bus is back; then the memory service catches up.
      await until(
        'the chat outbox is empty',
        async () => (await db.query('SELECT count(*)::int AS n FROM chat.outbox WHERE sent_at IS NULL')).rows[0].n === 0,
        60_000,
      );
      const completed = (await db.query("SELECT id FROM chat.message WHERE sender = 'assistant' AND status = 'complete'")).rows.map(
        (r: { id: string }) => r.id,
      );
      const extractedIds = async () =>
        (await db.query("SELECT event_id FROM memory.processed_event WHERE consumer = 'memory-extraction'")).rows.map(
          (r: { event_id: string }) => r.event_id,
        );
      await until(
        'the memory service has learnt from every stored exchange',
        async () => (await extractedIds()).length >= completed.length,
        60_000,
      );
      // A little longer, so that a duplicate delivery would have had the time to land.
      await sleep(1_000);
      const extracted = await extractedIds();

      const expected = new Set(completed.map((id) => `exchange:${id}`));
      const lost = [...expected].filter((id) => !extracted.includes(id));
      const duplicated = extracted.length - new Set(extracted).size + extracted.filter((id) => !expected.has(id)).length;
      const stream = await streamCount(nats.url, environment.prefix);
      const stored = new Set(completed);
      const acknowledgedMissing = acknowledged.filter((id) => !stored.has(id));
      const redelivered = await redeliveredCount(metrics.url);
      console.log(
        `NATS ${signal} x${RESTARTS} fault: ${redelivered} events redelivered to memory (caught by its processed events); ${attempted} exchanges attempted, ${acknowledged.length} acknowledged, ${completed.length} stored complete, ` +
          `${extracted.length} learnt from, ${lost.length} lost, ${duplicated} duplicated, ${stream} in JetStream; ` +
          `failures seen by clients: ${JSON.stringify(Object.fromEntries(failures))}`,
      );

      // Refused while the bus was away: a 503 (or 504) saying when to come back, never a 500.
      expect(refusals.filter((r) => r.status === 500)).toEqual([]);
      for (const r of refusals)
        expect({ status: r.status, retryAfter: Number(r.retryAfter) > 0 }).toEqual({ status: r.status, retryAfter: true });
      expect(acknowledgedMissing).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(0);
      expect(lost).toEqual([]);
      expect(duplicated).toBe(0);
      expect(stream).toBe(completed.length);
    },
    LONG ? 900_000 : 240_000,
  );
});

/** assistant_events_redelivered_total of the memory's extraction consumer, from this process's metrics. */
async function redeliveredCount(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('assistant_events_redelivered_total{') && l.includes('consumer="memory-extraction"'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** How many exchange events the stream holds (JetStream drops a repeated Nats-Msg-Id). */
async function streamCount(url: string, prefix: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const subject = `${prefix}.events.chat.exchange.completed`;
    const info = await jsm.streams.info(`EVENTS_${prefix.toUpperCase()}`, { subjects_filter: subject });
    return info.state.subjects?.[subject] ?? 0;
  } finally {
    await nc.close();
  }
}
