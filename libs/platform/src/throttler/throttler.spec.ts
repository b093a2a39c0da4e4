import { MemoryStore } from '../cache/key-value-store';
import { ThrottledError, Throttler, type ThrottleLimit } from './throttler';

const perMinute: ThrottleLimit = { name: 'test:minute', limit: 2, windowMs: 60_000, detail: 'Slow down.' };

describe('Throttler', () => {
  let kv: MemoryStore;
  let throttler: Throttler;
  beforeEach(() => {
    kv = new MemoryStore();
    throttler = new Throttler(kv);
  });
  afterEach(() => kv.close());

  it('lets the limit through in a clock window and refuses the next hit with 429 and the seconds left', async () => {
    await throttler.take(perMinute, 'u1', 60_000);
    await throttler.take(perMinute, 'u1', 100_000);
    const refused = await throttler.take(perMinute, 'u1', 110_500).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ThrottledError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', detail: 'Slow down.', retryAfterSeconds: 10 });
  });

  it('opens a new count with the next clock window, and counts each key apart', async () => {
    for (const at of [0, 1, 2]) await throttler.take(perMinute, 'u1', 60_000 + at).catch(() => undefined);
    await expect(throttler.take(perMinute, 'u1', 120_000)).resolves.toBeUndefined();
    await expect(throttler.take(perMinute, 'u2', 60_003)).resolves.toBeUndefined();
  });

  it('keeps each limit apart under the same key', async () => {
    const other = { ...perMinute, name: 'test:other' };
    await throttler.take(perMinute, 'u1', 0);
    await throttler.take(perMinute, 'u1', 0);
    await expect(throttler.take(other, 'u1', 0)).resolves.toBeUndefined();
  });

  it('opens a first-hit window at the key’s first hit and gives no Retry-After hint', async () => {
    const burst: ThrottleLimit = { name: 'test:burst', limit: 1, windowMs: 600_000, windows: 'first-hit', detail: 'Later.' };
    await throttler.take(burst, 'n');
    const refused = await throttler.take(burst, 'n').catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 429, detail: 'Later.', retryAfterSeconds: undefined });
  });
});
