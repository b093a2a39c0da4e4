import { defineEvent } from '@app/contracts';
import { USER_EVENTS } from '@app/contracts/events';
import {
  CreateOutbox1765600000000,
  createServiceDataSource,
  decode,
  dropUserEvents,
  InProcessBus,
  migrate,
  Outbox,
  runWithRequestContext,
  type Bus,
  type Headers,
} from '@app/platform';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { sleep, until } from '../support/until';

const HAPPENED = defineEvent({
  subject: 'events.test.happened',
  payload: z.object({ n: z.number(), text: z.string() }),
  description: 'test',
});
const SAID = defineEvent({
  subject: 'events.test.said',
  payload: z.object({ user_id: z.string(), user_text: z.string() }),
  description: "test: an event holding a user's words",
});
const quiet = { warn: () => undefined, error: () => undefined };

/** A bus that records what is published to it (and can refuse, as a broker that is down). */
function recordingBus(): Bus & { published: { subject: string; id: string; body: unknown; headers: Headers }[]; down: boolean } {
  const bus = {
    kind: 'nats',
    prefix: '',
    published: [] as { subject: string; id: string; body: unknown; headers: Headers }[],
    down: false,
    async publishEvent(subject: string, data: Uint8Array, headers: Headers, id: string) {
      if (bus.down) throw new Error('connection closed');
      bus.published.push({ subject, id, body: decode(data), headers });
    },
  };
  return bus as unknown as Bus & typeof bus;
}

/** The outbox against the real PostgreSQL: transactions, SKIP LOCKED between replicas, wake-up on commit. */
describe('the transactional outbox', () => {
  let database: TestDatabase;
  const sources: DataSource[] = [];
  const outboxes: Outbox[] = [];

  const dataSource = async () => {
    const source = createServiceDataSource({
      url: database.url,
      schema: 'svc',
      entities: [],
      migrations: [CreateOutbox1765600000000],
      poolMax: 5,
      applicationName: 'outbox-test',
    });
    await source.initialize();
    sources.push(source);
    return source;
  };
  const outboxOn = (source: DataSource, bus: Bus, options = {}) => {
    const outbox = new Outbox(source, bus, quiet, { pollIntervalMs: 60_000, ...options });
    outboxes.push(outbox);
    return outbox;
  };

  beforeAll(async () => {
    database = await createTestDatabase('outbox');
    await migrate(await dataSource(), 'svc');
  });

  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await sources[0].query('TRUNCATE svc.outbox');
  });

  afterAll(async () => {
    await Promise.all(sources.map((s) => s.destroy()));
    await database.drop();
  });

  it('writes an event only with the transaction that causes it, checked against its contract', async () => {
    const source = sources[0];
    const outbox = outboxOn(source, recordingBus());
    await expect(outbox.enqueue(source.manager, HAPPENED, { n: 1, text: 'outside' })).rejects.toThrow(/inside the transaction/);
    await expect(
      source.transaction(async (manager) => {
        await outbox.enqueue(manager, HAPPENED, { n: 2, text: 'rolled back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await expect(source.transaction((manager) => outbox.enqueue(manager, HAPPENED, { n: 'three', text: '' } as never))).rejects.toThrow();
    await source.transaction((manager) => outbox.enqueue(manager, HAPPENED, { n: 4, text: 'committed' }, { eventId: 'e-4' }));
    // The same id twice is stored once.
    await source.transaction((manager) => outbox.enqueue(manager, HAPPENED, { n: 4, text: 'again' }, { eventId: 'e-4' }));
    const rows = await source.query('SELECT event_id, subject, envelope::text AS body FROM svc.outbox');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id: 'e-4', subject: 'events.test.happened' });
    expect(JSON.parse(rows[0].body)).toMatchObject({ event_id: 'e-4', payload: { n: 4, text: 'committed' } });
    expect(await outbox.lag()).toMatchObject({ pending: 1 });
  });

  it('relays a committed event at once (woken by the commit), byte for byte, with the request id of its cause', async () => {
    const source = sources[0];
    const bus = new InProcessBus('', { startupWindowMs: 0 });
    const received: { data: unknown; headers: Headers }[] = [];
    await bus.consumeEvents({ durable: 'reader', subject: 'events.test.*', maxDeliver: 3, backoffMs: [10] }, async (event) => {
      received.push({ data: decode(event.data), headers: event.headers });
      return 'ack';
    });
    const outbox = outboxOn(source, bus);
    outbox.start();
    await sleep(100);
    // NUL and a lone surrogate: what jsonb refuses, the outbox keeps exactly.
    const text = 'a\u0000b \ud800 ✓';
    await runWithRequestContext({ request_id: 'req-1' }, () =>
      source.transaction((manager) => outbox.enqueue(manager, HAPPENED, { n: 1, text }, { eventId: 'e-1' })),
    );
    await until('delivered', () => received.length === 1, 5_000);
    expect(received[0].data).toMatchObject({ event_id: 'e-1', payload: { n: 1, text } });
    expect(received[0].headers).toMatchObject({ 'x-event-subject': 'events.test.happened', 'x-request-id': 'req-1' });
    await until('marked sent once the consumer has it', async () => (await outbox.lag()).pending === 0, 5_000);
    await bus.drain();
  });

  it('keeps events while the broker is down and sends each once it is back', async () => {
    const source = sources[0];
    const bus = recordingBus();
    bus.down = true;
    const outbox = outboxOn(source, bus, { pollIntervalMs: 50, retryMinMs: 20, retryMaxMs: 100 });
    outbox.start();
    for (let n = 0; n < 20; n++)
      await source.transaction((manager) => outbox.enqueue(manager, HAPPENED, { n, text: 'x' }, { eventId: `e-${n}` }));
    await sleep(300);
    expect(await outbox.lag()).toMatchObject({ pending: 20 });
    expect((await source.query('SELECT max(attempts)::int AS a, min(last_error) AS e FROM svc.outbox'))[0]).toMatchObject({
      e: 'connection closed',
    });
    bus.down = false;
    await until('all sent', async () => (await outbox.lag()).pending === 0, 5_000);
    expect(bus.published.map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, n) => `e-${n}`));
  });

  it('is shared by replicas without sending anything twice (FOR UPDATE SKIP LOCKED)', async () => {
    const bus = recordingBus();
    const replicas = [sources[0], await dataSource(), await dataSource()].map((source) =>
      outboxOn(source, bus, { pollIntervalMs: 20, batchSize: 7 }),
    );
    for (let batch = 0; batch < 10; batch++) {
      await sources[0].transaction(async (manager) => {
        for (let i = 0; i < 30; i++)
          await replicas[0].enqueue(manager, HAPPENED, { n: batch * 30 + i, text: 'x' }, { eventId: `e-${batch * 30 + i}` });
      });
    }
    replicas.forEach((r) => r.start());
    await until('all sent', async () => (await replicas[0].lag()).pending === 0, 20_000);
    const ids = bus.published.map((p) => p.id);
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
  });

  it("drops a purged user's events, pending and sent, and keeps others' and the account's lifecycle (issue 22.4)", async () => {
    const source = sources[0];
    const bus = recordingBus();
    const outbox = outboxOn(source, bus);
    const ada = '00000000-0000-4000-8000-0000000000ad';
    const bob = '00000000-0000-4000-8000-0000000000b0';
    await source.transaction(async (manager) => {
      await outbox.enqueue(manager, SAID, { user_id: ada, user_text: 'my door code is 9911' }, { eventId: 'ada-sent' });
      await outbox.enqueue(manager, SAID, { user_id: bob, user_text: "bob's words" }, { eventId: 'bob' });
    });
    outbox.start();
    await until('both relayed', async () => bus.published.length === 2, 5_000);
    await outbox.stop();
    bus.down = true; // what follows stays pending
    await source.transaction(async (manager) => {
      await outbox.enqueue(manager, SAID, { user_id: ada, user_text: 'my pin is 4821' }, { eventId: 'ada-pending' });
      await outbox.enqueue(manager, USER_EVENTS.deleted, { user_id: ada, deletion_id: 'd1' }, { eventId: 'ada-deleted' });
    });
    const dropped = await source.transaction((manager) => dropUserEvents(manager, ada));
    expect(dropped).toBe(2);
    const left = (await source.query('SELECT event_id, envelope::text AS envelope FROM svc.outbox ORDER BY event_id')) as {
      event_id: string;
      envelope: string;
    }[];
    expect(left.map((r) => r.event_id)).toEqual(['ada-deleted', 'bob']);
    expect(left.some((r) => /9911|4821/.test(r.envelope))).toBe(false);
  });

  it('deletes sent events after the retention', async () => {
    const source = sources[0];
    const outbox = outboxOn(source, recordingBus(), { retentionMs: 60 * 60_000 });
    await source.transaction(async (manager) => {
      await outbox.enqueue(manager, HAPPENED, { n: 1, text: 'old' }, { eventId: 'old' });
      await outbox.enqueue(manager, HAPPENED, { n: 2, text: 'recent' }, { eventId: 'recent' });
    });
    await source.query("UPDATE svc.outbox SET sent_at = now() - interval '2 hours' WHERE event_id = 'old'");
    await source.query("UPDATE svc.outbox SET sent_at = now() - interval '10 minutes' WHERE event_id = 'recent'");
    outbox.start();
    await until('the old one is gone', async () => (await source.query('SELECT event_id FROM svc.outbox')).length === 1, 5_000);
    expect(await source.query('SELECT event_id FROM svc.outbox')).toEqual([{ event_id: 'recent' }]);
  });
});
