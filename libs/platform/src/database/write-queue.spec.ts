import { QueryFailedError } from 'typeorm';
import { isTransientDatabaseError } from '../errors/infrastructure';
import { WriteQueue, type WriteQueueOptions } from './write-queue';

/** A write the test finishes by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const poolTimeout = () => new Error('timeout exceeded when trying to connect');
const withCode = (code: string) => new QueryFailedError('UPDATE message ...', [], Object.assign(new Error('pg error'), { code }));
const settle = () => new Promise((resolve) => setImmediate(resolve));

function queue(options: Partial<WriteQueueOptions> = {}) {
  return new WriteQueue({ concurrency: 2, attempts: 4, firstDelayMs: 1, maxDelayMs: 2, ...options });
}

describe('WriteQueue', () => {
  it('runs at most `concurrency` writes at once; the others wait and all complete', async () => {
    const q = queue({ concurrency: 3 });
    let running = 0;
    let most = 0;
    const gates = Array.from({ length: 20 }, gate);
    const writes = gates.map((g, i) =>
      q.run(async () => {
        running++;
        most = Math.max(most, running);
        await g.opened;
        running--;
        return i;
      }),
    );
    await settle();
    expect(q.active).toBe(3);
    expect(q.pending).toBe(17);
    gates.forEach((g) => g.open());
    expect(await Promise.all(writes)).toEqual(gates.map((_, i) => i));
    expect(most).toBe(3);
    expect(q.active + q.pending).toBe(0);
  });

  it('gives a free slot to the lowest priority first, in arrival order within one', async () => {
    const q = queue({ concurrency: 1 });
    const first = gate();
    const order: string[] = [];
    const blocker = q.run(() => first.opened);
    const writes = [
      q.run(async () => void order.push('checkpoint 1'), { priority: 2 }),
      q.run(async () => void order.push('final 1'), { priority: 1 }),
      q.run(async () => void order.push('lease'), { priority: 0 }),
      q.run(async () => void order.push('final 2'), { priority: 1 }),
    ];
    first.open();
    await Promise.all([blocker, ...writes]);
    expect(order).toEqual(['lease', 'final 1', 'final 2', 'checkpoint 1']);
  });

  it('tries a write again while it fails with a transient error, and keeps its slot free meanwhile', async () => {
    const retries: number[] = [];
    const q = queue({ concurrency: 1, onRetry: (_error, attempt) => retries.push(attempt) });
    const failures = [poolTimeout(), withCode('57P01'), withCode('40001')];
    let calls = 0;
    const other: string[] = [];
    const result = q.run(async () => {
      calls++;
      const failure = failures.shift();
      if (failure) {
        // Another write takes the slot while this one waits to try again.
        void q.run(async () => void other.push(`during attempt ${calls}`));
        throw failure;
      }
      return 'stored';
    });
    await expect(result).resolves.toBe('stored');
    expect(calls).toBe(4);
    expect(retries).toEqual([1, 2, 3]);
    expect(other).toEqual(['during attempt 1', 'during attempt 2', 'during attempt 3']);
  });

  it('gives up after its attempts with the last error', async () => {
    const q = queue({ attempts: 3 });
    let calls = 0;
    await expect(
      q.run(async () => {
        calls++;
        throw poolTimeout();
      }),
    ).rejects.toThrow('timeout exceeded when trying to connect');
    expect(calls).toBe(3);
    expect(q.active + q.pending).toBe(0);
  });

  it('does not try again a write that failed for a reason of its own', async () => {
    const q = queue();
    let calls = 0;
    await expect(
      q.run(async () => {
        calls++;
        throw withCode('23505'); // unique violation: the same statement fails the same way
      }),
    ).rejects.toBeInstanceOf(QueryFailedError);
    expect(calls).toBe(1);
  });

  it('drops a write still waiting for its turn when its signal aborts', async () => {
    const q = queue({ concurrency: 1 });
    const first = gate();
    const blocker = q.run(() => first.opened);
    const stop = new AbortController();
    let ran = false;
    const dropped = q.run(async () => void (ran = true), { signal: stop.signal });
    const after = q.run(async () => 'after');
    stop.abort(new Error('superseded'));
    await expect(dropped).rejects.toThrow('superseded');
    expect(q.pending).toBe(1);
    first.open();
    await expect(after).resolves.toBe('after');
    await blocker;
    expect(ran).toBe(false);
  });
});

describe('isTransientDatabaseError', () => {
  it.each([
    ['the pool exhausted', poolTimeout(), true],
    ['an admin shutdown (57P01)', withCode('57P01'), true],
    ['a serialization failure (40001)', withCode('40001'), true],
    ['a deadlock (40P01)', withCode('40P01'), true],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true],
    ['a unique violation (23505)', withCode('23505'), false],
    ['a bug', new TypeError('undefined is not a function'), false],
  ])('%s', (_what, error, transient) => {
    expect(isTransientDatabaseError(error)).toBe(transient);
  });
});
