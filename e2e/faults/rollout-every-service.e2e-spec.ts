import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Pool } from 'pg';
import { haveNatsServer } from '../support/nats-server';
import type { ServiceProcess } from '../support/service-process';
import { sleep, until } from '../support/until';
import { DistributedProduct, haveRedisServer, sendMessage } from './support/product';

/**
 * A rolling update of every service under a steady journey load (issue 13, Tests): the distributed
 * mode on its own NATS, Redis and database, two replicas of each service, a few clients in a loop
 * touching every one of them (a guest, the chat list, a streamed reply, the memories, the voice
 * settings, a file, a texted sign-in code). One replica of each service in turn is sent SIGTERM,
 * must exit 0 within its grace period (past it the process exits 1), and a fresh one takes its place before the next. A memory
 * replica is also killed with SIGKILL mid-load: the exchange events it had taken come back to the
 * other replica (after JetStream's ack wait). No client call may fail, no stream may be cut, and
 * every complete exchange is learnt from exactly once. FAULT_LONG=1 runs more clients and two rounds.
 */
const LONG = process.env.FAULT_LONG === '1';
const CLIENTS = LONG ? 6 : 3;
const ROUNDS = LONG ? 2 : 1;
const SERVICES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'];
const GRACE_MS = 15_000;

const describeIf = haveNatsServer() && haveRedisServer() ? describe : describe.skip;

describeIf('a rolling update of every service under load', () => {
  let product: DistributedProduct;
  let db: Pool;
  const gone = new Set<ServiceProcess>();
  const running = (name: string) => product.processes.find((p) => p.name === name && !gone.has(p))!;

  beforeAll(async () => {
    // The first replica of each service migrates its schema alone; the second ones boot side by side.
    product = await DistributedProduct.start('rollall', {
      services: SERVICES,
      env: {
        // Replies of about 6 s (the offline model's 85 words): long enough to be cut by a careless
        // rollout, short enough that exchange events keep coming while a replica is frozen.
        OFFLINE_TOKEN_DELAY_MS: '70',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        CHAT_GUEST_DAILY_LIMIT: '1000000',
        DEV_SMS_INBOX: 'true',
        SMS_PROVIDER: 'console',
        PHONE_CODES_PER_IP: '10000',
      },
    });
    await Promise.all(SERVICES.map((name) => product.startService(name)));
    db = new Pool({ connectionString: product.environment.database.url, max: 2 });
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await product?.close();
  }, 60_000);

  /** The memory service's durable consumer of completed exchanges, as JetStream sees it. */
  async function exchangeConsumer(): Promise<{ name: string; ackPending: number; deliveries: number }> {
    const nc = await connect({ servers: product.nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      const consumers = await jsm.consumers.list(`EVENTS_${product.environment.prefix.toUpperCase()}`).next();
      const memory = consumers.filter((c) => c.config.filter_subject?.endsWith('chat.exchange.completed') && c.name.includes('memory'));
      if (memory.length !== 1) throw new Error(`Expected one memory consumer of exchanges: ${consumers.map((c) => c.name).join(', ')}`);
      // Its consumer sequence counts every delivery, the first ones and the redeliveries.
      return { name: memory[0].name, ackPending: memory[0].num_ack_pending, deliveries: memory[0].delivered.consumer_seq };
    } finally {
      await nc.close();
    }
  }

  it('no call fails, no stream is cut, every stopped replica exits 0, every exchange is learnt from once', async () => {
    const base = product.url;
    let loading = true;
    let calls = 0;
    let streams = 0;
    let journeys = 0;
    const failures: { what: string; status: number; text: string; startedAt: number }[] = [];
    const failed = (what: string, status: number, text: string, startedAt: number) => failures.push({ what, status, text, startedAt });
    // From the freeze of the memory replica to its death: a memory call it had taken waits for the RPC timeout (504).
    const crash = { from: Infinity, to: -Infinity };
    let phone = 0;

    const call = async (what: string, init: RequestInit & { token?: string }, path: string): Promise<Response | undefined> => {
      calls++;
      const startedAt = performance.now();
      try {
        const headers = new Headers(init.headers);
        if (init.token) headers.set('authorization', `Bearer ${init.token}`);
        const res = await fetch(`${base}${path}`, { ...init, headers });
        if (res.status >= 300) {
          failed(what, res.status, await res.text(), startedAt);
          return undefined;
        }
        return res;
      } catch (error) {
        failed(what, 0, String(error), startedAt);
        return undefined;
      }
    };
    const json = async <T>(res: Response | undefined): Promise<T | undefined> => (res ? ((await res.json()) as T) : undefined);

    const client = async (index: number) => {
      // A guest, once (auth), with a conversation of its own (chat).
      const guest = await json<{ token: string }>(await call('POST /auth/anon', { method: 'POST' }, '/api/v1/auth/anon'));
      if (!guest) return;
      const { token } = guest;
      const created = await json<{ chat_id: string }>(
        await call('POST /chats', { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{}' }, '/api/v1/chats'),
      );
      if (!created) return;
      let n = 0;
      while (loading) {
        n++;
        await json(await call('GET /chats', { token }, '/api/v1/chats'));
        const replyStartedAt = performance.now();
        const reply = sendMessage(
          base,
          { token, chatId: created.chat_id },
          `I live in Porto and my dog is called Rex. Message ${n} of ${index}.`,
        );
        calls++;
        streams++;
        await reply.finished;
        if (!reply.completed)
          failed('stream', reply.status, `${reply.kinds.filter((k) => k !== 'text').join(',')} ${reply.body}`, replyStartedAt);
        await json(await call('GET /user_memory', { token }, '/api/v1/user_memory/'));
        await json(await call('GET /ai-voice', { token }, '/api/v1/user_config/ai-voice'));
        await json(
          await call(
            'POST /ai-voice',
            {
              method: 'POST',
              token,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ voice: n % 2 ? 'verse' : 'alloy' }),
            },
            '/api/v1/user_config/ai-voice',
          ),
        );
        const form = new FormData();
        form.append('file', new Blob([`note ${n} of client ${index}\n`], { type: 'text/plain' }), `note-${n}.txt`);
        await json(await call('POST /files', { method: 'POST', token, body: form }, '/api/v1/files/'));
        await textedCode(token);
        journeys++;
      }
    };

    // A sign-in code texted to a number of its own (auth, then the sms service), as a browser asks for it.
    const textedCode = async (token: string) => {
      const csrf = await call('GET /csrf-token', { token }, '/api/v1/auth/csrf-token');
      if (!csrf) return;
      await csrf.arrayBuffer();
      const cookie = csrf.headers
        .getSetCookie()
        .find((c) => c.startsWith('csrf_token='))!
        .split(';')[0];
      const number = `+1415556${String(phone++ % 10_000).padStart(4, '0')}`;
      const res = await call(
        'POST /login/phone_number',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf.headers.get('x-csrf-token')!, cookie },
          body: JSON.stringify({ phone_number: number }),
        },
        '/api/v1/auth/login/phone_number',
      );
      await res?.arrayBuffer();
    };

    /**
     * Replies the test starts itself on top of the clients' load, all streaming before it goes on:
     * with several in flight on the two chat replicas, the one stopped surely holds some (the
     * clients alone leave that to chance), and each one's exchange event follows a few seconds later.
     */
    const burst = async (count: number, label: string) => {
      const readers = await Promise.all(
        Array.from({ length: count }, async (_, i) => {
          // A guest each: one user's replies follow each other, several users' run side by side.
          const token = (await json<{ token: string }>(await call('POST /auth/anon', { method: 'POST' }, '/api/v1/auth/anon')))?.token;
          if (!token) return undefined;
          const created = await json<{ chat_id: string }>(
            await call(
              'POST /chats',
              { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: '{}' },
              '/api/v1/chats',
            ),
          );
          if (!created) return undefined;
          calls++;
          streams++;
          const startedAt = performance.now();
          return {
            startedAt,
            reader: sendMessage(base, { token, chatId: created.chat_id }, `My cat is called Tom. Burst ${label}, ${i}.`),
          };
        }),
      );
      const live = readers.filter((r): r is NonNullable<typeof r> => r !== undefined);
      const finished = Promise.all(
        live.map(async ({ reader, startedAt }) => {
          await reader.finished;
          if (!reader.completed)
            failed('stream', reader.status, `${reader.kinds.filter((k) => k !== 'text').join(',')} ${reader.body}`, startedAt);
        }),
      );
      return {
        streaming: () =>
          until(`the burst ${label} streaming`, async () => live.every((r) => r.reader.kinds.includes('text') || r.reader.isOver), 30_000),
        finished,
      };
    };

    const load = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
    const someJourneys = async (label: string, count: number) => {
      const from = journeys;
      await until(`${count} journeys ${label}`, () => journeys >= from + count || !loading, 60_000);
    };
    const report: string[] = [];

    try {
      await someJourneys('before the rollout', CLIENTS);

      // A crash first (its events come back after JetStream's ack wait, while the rollout goes on). The
      // replica is frozen (SIGSTOP) until it holds exchange events it has taken and not acknowledged,
      // then killed: those are the ones that must come back to the other replica, and be applied once.
      const crashed = running('memory');
      gone.add(crashed);
      crash.from = performance.now();
      // A frozen client cannot renew its pull request: when the one it had open expires (30 s) before
      // the events come, it takes none. It is then let go for a second to pull again, and frozen anew.
      let held = 0;
      const duringFreeze: Promise<unknown>[] = [];
      for (let attempt = 1; held === 0; attempt++) {
        void crashed.kill('SIGSTOP');
        // Exchanges of its own, so that events keep coming while the replica is frozen.
        duringFreeze.push((await burst(4, `during freeze ${attempt}`)).finished);
        try {
          // Unacknowledged on two looks half a second apart: held by the frozen replica (the live one acknowledges within ms).
          await until(
            'the frozen memory replica holding exchange events',
            async () => {
              const first = (await exchangeConsumer()).ackPending;
              await sleep(500);
              held = Math.min(first, (await exchangeConsumer()).ackPending);
              return held > 0;
            },
            15_000,
          );
        } catch (error) {
          if (attempt === 3) throw error;
          void crashed.kill('SIGCONT');
          await sleep(1_000);
        }
      }
      const crashCode = await crashed.kill('SIGKILL');
      await Promise.all(duringFreeze);
      crash.to = performance.now();
      report.push(
        `memory SIGKILL holding about ${held} unacknowledged exchange events (frozen ${duringFreeze.length}×): exit ${crashCode}`,
      );
      await product.startService('memory');

      const exits: { name: string; code: number | null; ms: number; inFlight: number; log: string }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const name of SERVICES) {
          await someJourneys(`before ${name} is stopped`, 1);
          const inFlight = name === 'chat' ? await burst(6, `round ${round}`) : undefined;
          await inFlight?.streaming();
          const old = running(name);
          gone.add(old);
          const started = performance.now();
          const code = await old.kill('SIGTERM');
          const ms = Math.round(performance.now() - started);
          const held = Number(/finishing (\d+) in flight/.exec(old.log)?.[1] ?? 0);
          exits.push({ name, code, ms, inFlight: held, log: old.log });
          report.push(`${name} SIGTERM with ${held} in flight: exit ${code} in ${ms} ms`);
          await product.startService(name);
          await inFlight?.finished;
        }
      }
      await someJourneys('after the rollout', CLIENTS);
      loading = false;
      await load;

      // Every complete exchange learnt from exactly once (the chat outbox drained, then the memory service caught up).
      await until(
        'the chat outbox is empty',
        async () => (await db.query('SELECT count(*)::int AS n FROM chat.outbox WHERE sent_at IS NULL')).rows[0].n === 0,
        30_000,
      );
      const completed = (await db.query("SELECT id FROM chat.message WHERE sender = 'assistant' AND status = 'complete'")).rows.map(
        (r: { id: string }) => `exchange:${r.id}`,
      );
      const extractedIds = async () =>
        (await db.query("SELECT event_id FROM memory.processed_event WHERE consumer = 'memory-extraction'")).rows.map(
          (r: { event_id: string }) => r.event_id,
        );
      // Up to JetStream's ack wait (30 s) for what the killed replica had taken.
      await until('every exchange learnt from', async () => (await extractedIds()).length >= completed.length, 60_000);
      await sleep(1_000);
      const extracted = await extractedIds();
      const expected = new Set(completed);
      const lost = completed.filter((id) => !extracted.includes(id));
      const duplicated = extracted.length - new Set(extracted).size + extracted.filter((id) => !expected.has(id)).length;
      const consumer = await exchangeConsumer();
      // Each stored exchange was delivered once at least: what is over that count came back after the crash.
      const redelivered = consumer.deliveries - completed.length;
      const byCrash = failures.filter(
        (f) => f.what === 'GET /user_memory' && f.status === 504 && f.startedAt >= crash.from - 1_000 && f.startedAt <= crash.to,
      );
      const unexpected = failures.filter((f) => !byCrash.includes(f)).map((f) => `${f.what}: ${f.status} ${f.text}`);

      process.stdout.write(
        `[rollout-every-service] ${CLIENTS} clients, ${journeys} journeys, ${calls} calls (${streams} streams), ${unexpected.length} failed ` +
          `(and ${byCrash.length} memory reads taken by the replica killed with SIGKILL, answered 504 at the RPC timeout); ` +
          `${completed.length} complete exchanges, ${extracted.length} learnt from, ${lost.length} lost, ${duplicated} duplicated, ` +
          `${consumer.deliveries} deliveries to ${consumer.name} (${redelivered} redelivered)\n  ` +
          report.join('\n  ') +
          '\n',
      );
      expect(unexpected).toEqual([]);
      expect(streams).toBeGreaterThan(0);
      for (const exit of exits) {
        expect({ name: exit.name, code: exit.code, clean: exit.log.includes('Stopped cleanly') }).toEqual({
          name: exit.name,
          code: 0,
          clean: true,
        });
      }
      // The load was real: some replica was stopped with work in flight.
      expect(exits.reduce((sum, exit) => sum + exit.inFlight, 0)).toBeGreaterThan(0);
      expect(completed.length).toBeGreaterThan(0);
      expect(lost).toEqual([]);
      expect(duplicated).toBe(0);
      expect(redelivered).toBeGreaterThan(0);
      expect(consumer.ackPending).toBe(0);
    } finally {
      loading = false;
      await load;
    }
  }, 240_000);
});
