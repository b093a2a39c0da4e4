import { randomUUID } from 'node:crypto';
import type { Caller } from '@app/contracts';
import { CHAT_RPC } from '@app/contracts/chat';
import { NatsBus, RpcCallError, RpcClient } from '@app/platform';
import { createTestEnvironment, FakeOpenAI, type TestEnvironment } from '@app/testing';
import { Client } from 'pg';
import { OwnNatsServer, haveNatsServer } from '../support/nats-server';
import { ServiceProcess } from '../support/service-process';
import { until } from '../support/until';

const REPLIES = 300;
/** Streams opened at once (as the idle bench's clients do, fifty at a time there). */
const OPENING_AT_ONCE = 10;

/**
 * Faults: hundreds of clients hang up together and their replies end at the same instant (a gateway
 * restart, a network blip, the model's connection dropped), on a chat process with a deliberately
 * small pool (three connections, a statement waits 300 ms at most for one). Every reply's final
 * state is stored by the process that wrote it (read back from the database: none left `streaming`,
 * none only recovered from a checkpoint once its lease ran out) and none "could not be saved".
 * Before ReplyWrites, all the final saves asked the pool at once and those that waited past its
 * connection timeout were lost to "timeout exceeded when trying to connect".
 */
(haveNatsServer() ? describe : describe.skip)('hundreds of replies ending at once', () => {
  let nats: OwnNatsServer;
  let environment: TestEnvironment;
  let db: Client;
  let bus: NatsBus;
  let model: FakeOpenAI;
  let chat: ServiceProcess | undefined;

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    environment = await createTestEnvironment('hangups', 'nats');
    model = new FakeOpenAI();
    await model.start();
    // Every reply waits on a silent model until the fake stops: then all of them end at once.
    model.setDefaultReply('responses', () => ({ steps: [{ stall: true }] }));
    db = new Client({ connectionString: environment.database.url });
    await db.connect();
    bus = await NatsBus.connect({ url: nats.url, prefix: environment.prefix, name: 'hang-ups-test' });
  }, 60_000);

  afterAll(async () => {
    await chat?.kill();
    await model?.stop();
    await bus?.drain();
    await db?.end();
    await nats?.close();
    await environment?.cleanup();
  }, 60_000);

  it('stores every reply when all their clients hang up and all their model calls end together, on a pool of three', async () => {
    chat = await ServiceProcess.start('chat', {
      ...environment.env,
      NATS_URL: nats.url,
      MIGRATE_ON_BOOT: 'true',
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: model.baseURL,
      CHAT_MODEL: 'test-model',
      LLM_STALL_TIMEOUT_MS: '600000',
      CHAT_GUEST_DAILY_LIMIT: '100000',
      DB_POOL_MAX: '3',
      DB_POOL_CONNECT_TIMEOUT_MS: '300',
    });
    const NOT_SAVED = 'The reply could not be saved';
    const RETRIED = 'A reply write failed; it is tried again';
    chat.watch(NOT_SAVED);
    chat.watch(RETRIED);
    const rpc = new RpcClient(bus, 30_000);
    const caller: Caller = { user_id: randomUUID(), is_anon: true, session_id: randomUUID(), request_id: randomUUID() };
    const hangUp = new AbortController();
    const readers: Promise<unknown>[] = [];

    /** A request the small pool turned away (503: busy) is asked again; that is not what this test is about. */
    const patiently = async <T>(work: () => Promise<T>): Promise<T> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await work();
        } catch (error) {
          if (!(error instanceof RpcCallError && error.shape.status === 503) || attempt >= 20) throw error;
        }
      }
    };

    /** Opens one reply stream: resolves once the reply has started (its user message came); reads on until the hang-up. */
    const open = (i: number) =>
      patiently(async () => {
        const { chat_id } = await rpc.call(CHAT_RPC.create, {}, caller);
        const events = rpc.stream(CHAT_RPC.send, { chat_id, content: `Hang-up ${i}` }, caller, { signal: hangUp.signal });
        const first = await events.next();
        if (first.done || first.value.event !== 'user_message') throw new Error(`Reply ${i} did not start: ${JSON.stringify(first)}`);
        readers.push(
          (async () => {
            for await (const event of events) void event;
          })().catch((error: unknown) => error),
        );
      });

    let next = 0;
    await Promise.all(
      Array.from({ length: OPENING_AT_ONCE }, async () => {
        while (next < REPLIES) await open(next++);
      }),
    );
    // Every reply waits on the model (one whose history the small pool could not read in time has ended already, stored).
    await until(
      'every reply started waiting on the model',
      async () => {
        const { rows } = await db.query(
          "SELECT count(*)::int AS replies, count(*) FILTER (WHERE status = 'streaming')::int AS streaming FROM chat.message WHERE sender = 'assistant'",
        );
        return rows[0].replies === REPLIES && rows[0].streaming === model.requests('responses').length;
      },
      120_000,
      250,
    );

    // Every client hangs up at once, then every model call ends at once.
    hangUp.abort(new Error('hung up'));
    await Promise.all(readers);
    await model.stop();

    // Each reply is stored by its process: none is left `streaming` (which ReplyRecovery would cut once its lease ran out).
    await until(
      'no reply left streaming',
      async () => {
        const { rows } = await db.query("SELECT count(*)::int AS n FROM chat.message WHERE sender = 'assistant' AND status = 'streaming'");
        return rows[0].n === 0;
      },
      120_000,
      250,
    );
    const { rows } = await db.query<{ status: string; stored: boolean; n: number }>(
      `SELECT status, metadata ? 'duration_ms' AS stored, count(*)::int AS n
       FROM chat.message WHERE sender = 'assistant' GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    // The model's connection dropped: each reply is stored as incomplete, by its own final save (duration_ms).
    expect(rows).toEqual([{ status: 'incomplete', stored: true, n: REPLIES }]);
    expect(chat.count(NOT_SAVED)).toBe(0);
    process.stdout.write(`${REPLIES} replies ended at once on a pool of 3: all stored, ${chat.count(RETRIED)} writes tried again\n`);
  }, 300_000);
});
