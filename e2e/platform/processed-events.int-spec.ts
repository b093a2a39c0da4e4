import { applyOnce, EVENT_DUPLICATE_WINDOW_MS, processedEventHorizonMs, pruneProcessedEvents } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import type { DataSource } from 'typeorm';

const DAY_MS = 86_400_000;

/**
 * The processed-event table (exactly-once) against the real PostgreSQL: ids of events applied
 * longer ago than the event stream's redelivery horizon are pruned, in batches; the others stay and
 * still make a redelivery change nothing.
 */
describe('the processed-event table is pruned past the redelivery horizon', () => {
  let db: ServiceDatabase;
  let source: DataSource;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'processed', schema: 'svc', migrations: [], poolMax: 4 });
    source = db.source;
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('the horizon is the stream max_age plus its duplicate window (plus an hour for the clocks)', () => {
    expect(processedEventHorizonMs(7 * DAY_MS, EVENT_DUPLICATE_WINDOW_MS)).toBe(7 * DAY_MS + 2 * 60_000 + 3_600_000);
  });

  it('forgets the old ids in batches, keeps the recent ones, which still stop a redelivery', async () => {
    const now = Date.now();
    const horizon = processedEventHorizonMs(7 * DAY_MS, EVENT_DUPLICATE_WINDOW_MS);
    await source.query(
      `INSERT INTO processed_event (consumer, event_id, processed_at)
       SELECT 'memory-extraction', 'old-' || n, $1::timestamptz - (n || ' seconds')::interval FROM generate_series(1, 1234) n`,
      [new Date(now - horizon - 1_000).toISOString()],
    );
    await source.query(
      `INSERT INTO processed_event (consumer, event_id, processed_at) VALUES ('memory-extraction', 'recent', $1), ('titles', 'edge', $2)`,
      [new Date(now - DAY_MS).toISOString(), new Date(now - horizon + 60_000).toISOString()],
    );

    expect(await pruneProcessedEvents(source, new Date(now - horizon), 500)).toBe(1234);
    const left: { event_id: string }[] = await source.query('SELECT event_id FROM processed_event ORDER BY event_id');
    expect(left.map((r) => r.event_id)).toEqual(['edge', 'recent']);

    let ran = 0;
    expect(await applyOnce(source, 'memory-extraction', 'recent', async () => void ran++)).toBe(false);
    expect(ran).toBe(0);
    expect(await pruneProcessedEvents(source, new Date(now - horizon))).toBe(0);
  });
});
