import type { OutboxLag, OutboxRow, OutboxStore } from './outbox';
import { OutboxRelay, type OutboxSender } from './outbox-relay';

/** An outbox in memory, on a clock the test moves. */
class FakeOutboxStore implements OutboxStore {
  now = 1_000_000;
  readonly rows: { row: OutboxRow; sentAt: number | null; nextAttemptAt: number; lastError: string | null }[] = [];
  readonly calls: string[] = [];
  private nextId = 1;

  add(count: number, subject = 'events.thing.happened'): void {
    for (let i = 0; i < count; i++) {
      const id = String(this.nextId++);
      this.rows.push({
        row: { id, eventId: `event-${id}`, subject, body: `{"n":${id}}`, headers: {}, attempts: 0 },
        sentAt: null,
        nextAttemptAt: this.now,
        lastError: null,
      });
    }
  }

  entry(id: string) {
    return this.rows.find((r) => r.row.id === id)!;
  }

  async claim(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    this.calls.push(`claim ${limit}`);
    const due = this.rows.filter((r) => r.sentAt === null && r.nextAttemptAt <= this.now).slice(0, limit);
    for (const r of due) {
      r.row = { ...r.row, attempts: r.row.attempts + 1 };
      r.nextAttemptAt = this.now + leaseMs;
    }
    return due.map((r) => ({ ...r.row }));
  }

  async markSent(ids: string[]): Promise<void> {
    this.calls.push(`sent ${ids.join(',')}`);
    for (const id of ids) this.entry(id).sentAt = this.now;
  }

  async markFailed(ids: string[], retryInMs: number, error: string): Promise<void> {
    this.calls.push(`failed ${ids.join(',')} +${retryInMs}`);
    for (const id of ids) Object.assign(this.entry(id), { nextAttemptAt: this.now + retryInMs, lastError: error });
  }

  async release(ids: string[]): Promise<void> {
    this.calls.push(`release ${ids.join(',')}`);
    for (const id of ids) if (this.entry(id).sentAt === null) this.entry(id).nextAttemptAt = this.now;
  }

  async deleteSentBefore(before: Date): Promise<number> {
    this.calls.push(`delete before ${before.getTime()}`);
    return 0;
  }

  async lag(): Promise<OutboxLag> {
    return { pending: this.rows.filter((r) => r.sentAt === null).length, oldestPendingMs: 0 };
  }
}

/** A bus the test can take down, refuse one event on, or keep from settling. */
class FakeBus {
  up = true;
  refuse = new Set<string>();
  readonly published: string[] = [];
  private readonly unsettled = new Map<string, () => void>();
  holdSettlement = false;

  readonly send: OutboxSender = async (row) => {
    if (!this.up) throw new Error('connection closed');
    if (this.refuse.has(row.eventId)) throw new Error('message too large');
    this.published.push(row.eventId);
    if (!this.holdSettlement) return { settled: Promise.resolve() };
    return { settled: new Promise<void>((resolve) => this.unsettled.set(row.eventId, resolve)) };
  };

  settle(eventId: string): void {
    this.unsettled.get(eventId)?.();
  }
}

const quietLog = { warn: () => undefined, error: () => undefined };
const options = { batchSize: 10, retryMinMs: 100, retryMaxMs: 800, poisonRetryMaxMs: 10_000, leaseMs: 30_000 };
const flush = () => new Promise((resolve) => setImmediate(resolve));

async function waitFor(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !predicate(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(predicate()).toBe(true);
}

describe('OutboxRelay', () => {
  it('publishes due rows oldest first and marks them sent in one statement', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    store.add(3);
    const relay = new OutboxRelay(store, bus.send, quietLog, options);

    const round = await relay.runOnce();

    expect(round).toEqual({ claimed: 3, published: 3, failed: 0, pauseMs: 0 });
    expect(bus.published).toEqual(['event-1', 'event-2', 'event-3']);
    expect(store.calls).toEqual(['claim 10', 'sent 1,2,3']);
    expect(await store.lag()).toEqual({ pending: 0, oldestPendingMs: 0 });
  });

  it('keeps everything while the broker is down, backs off by doubling, then sends it all once, in order', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    store.add(3);
    const relay = new OutboxRelay(store, bus.send, quietLog, options);
    bus.up = false;

    const pauses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const round = await relay.runOnce();
      expect(round).toMatchObject({ claimed: 3, published: 0, failed: 3 });
      pauses.push(round.pauseMs);
      // Every row of the round waits exactly the relay's pause: they come back together, in order.
      expect(new Set(store.rows.map((r) => r.nextAttemptAt))).toEqual(new Set([store.now + round.pauseMs]));
      store.now += round.pauseMs;
    }
    expect(pauses).toEqual([100, 200, 400, 800, 800]);
    expect(store.rows.every((r) => r.sentAt === null && r.lastError === 'connection closed')).toBe(true);

    bus.up = true;
    store.add(1);
    const round = await relay.runOnce();
    expect(round).toEqual({ claimed: 4, published: 4, failed: 0, pauseMs: 0 });
    expect(bus.published).toEqual(['event-1', 'event-2', 'event-3', 'event-4']);
    expect(store.rows.every((r) => r.sentAt !== null)).toBe(true);

    // The back-off starts again from the bottom after a success.
    bus.up = false;
    store.add(1);
    expect((await relay.runOnce()).pauseMs).toBe(100);
  });

  it('backs off a row the bus refuses on its own, without holding up the others or pausing', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    store.add(3);
    bus.refuse.add('event-2');
    const relay = new OutboxRelay(store, bus.send, quietLog, options);

    const first = await relay.runOnce();
    expect(first).toEqual({ claimed: 3, published: 2, failed: 1, pauseMs: 0 });
    expect(bus.published).toEqual(['event-1', 'event-3']);
    expect(store.entry('2')).toMatchObject({ sentAt: null, nextAttemptAt: store.now + 100, lastError: 'message too large' });

    // Later rows go on; the refused one comes back with a longer wait each time.
    store.add(1);
    store.now += 100;
    await relay.runOnce();
    expect(bus.published).toEqual(['event-1', 'event-3', 'event-4']);
    expect(store.entry('2').nextAttemptAt).toBe(store.now + 200);

    bus.refuse.clear();
    store.now += 200;
    await relay.runOnce();
    expect(bus.published).toEqual(['event-1', 'event-3', 'event-4', 'event-2']);
    expect(store.rows.every((r) => r.sentAt !== null)).toBe(true);
  });

  it('marks a row sent only once the bus says it is settled, and does not send it twice meanwhile', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    bus.holdSettlement = true;
    store.add(2);
    const relay = new OutboxRelay(store, bus.send, quietLog, { ...options, leaseMs: 0 });

    await relay.runOnce();
    expect(relay.inFlightCount).toBe(2);
    expect(store.rows.every((r) => r.sentAt === null)).toBe(true);

    // The lease ran out while it waits (leaseMs 0): claimed again, still not sent again.
    await relay.runOnce();
    expect(bus.published).toEqual(['event-1', 'event-2']);

    bus.settle('event-2');
    await waitFor(() => store.entry('2').sentAt !== null);
    expect(store.entry('1').sentAt).toBeNull();
    expect(relay.inFlightCount).toBe(1);
  });

  it('on stop, releases what is not settled so the next process sends it at once', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    bus.holdSettlement = true;
    store.add(2);
    const relay = new OutboxRelay(store, bus.send, quietLog, { ...options, pollIntervalMs: 60_000 });
    relay.start();
    await waitFor(() => relay.inFlightCount === 2);
    bus.settle('event-1');
    await waitFor(() => store.entry('1').sentAt !== null);

    await relay.stop();

    expect(store.calls).toContain('release 2');
    expect(store.entry('2')).toMatchObject({ sentAt: null, nextAttemptAt: store.now });
  });

  it('wakes at once when told a commit wrote to the outbox, however long its poll interval', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    const relay = new OutboxRelay(store, bus.send, quietLog, { ...options, pollIntervalMs: 60_000 });
    relay.start();
    await waitFor(() => store.calls.includes('claim 10'));
    await flush();

    store.add(1);
    relay.wake();
    await waitFor(() => bus.published.includes('event-1'));
    await relay.stop();
  });

  it('deletes sent rows older than the retention', async () => {
    const store = new FakeOutboxStore();
    const bus = new FakeBus();
    const relay = new OutboxRelay(store, bus.send, quietLog, { ...options, retentionMs: 5_000, pollIntervalMs: 60_000 });
    const before = Date.now();
    relay.start();
    await waitFor(() => store.calls.some((c) => c.startsWith('delete before')));
    await relay.stop();
    const cutoff = Number(store.calls.find((c) => c.startsWith('delete before'))!.split(' ')[2]);
    expect(cutoff).toBeGreaterThanOrEqual(before - 5_000);
    expect(cutoff).toBeLessThanOrEqual(Date.now() - 5_000);
  });
});
