import { FairQueue } from './fair-queue';

/** A task that runs until the test ends it. */
function held() {
  let end!: () => void;
  const done = new Promise<void>((resolve) => (end = resolve));
  return { done, end };
}

describe('FairQueue', () => {
  it('gives a freed slot to the user with the fewest tasks running, not to the first in line', async () => {
    const queue = new FairQueue(1);
    const order: string[] = [];
    const first = held();
    const running = queue.run('a', async () => {
      order.push('a1');
      await first.done;
    });
    // a queues nine more before b and c ask once each.
    const rest = Array.from({ length: 9 }, (_, i) => queue.run('a', async () => void order.push(`a${i + 2}`)));
    const b = queue.run('b', async () => void order.push('b1'));
    const c = queue.run('c', async () => void order.push('c1'));
    expect(queue.load).toEqual({ running: 1, waiting: 11 });
    first.end();
    await Promise.all([running, ...rest, b, c]);
    expect(order.slice(0, 4)).toEqual(['a1', 'b1', 'c1', 'a2']);
    expect(order).toHaveLength(12);
  });

  it("shares the slots: a user's second task waits behind other users' first ones", async () => {
    const queue = new FairQueue(2);
    const tasks = { a1: held(), a2: held(), b1: held() };
    const started: string[] = [];
    const run = (key: string, name: keyof typeof tasks) =>
      queue.run(key, async () => {
        started.push(name);
        await tasks[name].done;
      });
    const all = [run('a', 'a1'), run('a', 'a2'), run('b', 'b1')];
    await Promise.resolve();
    // Alone, a may use both slots; b, arriving, takes the next free one before a's third.
    expect(started).toEqual(['a1', 'a2']);
    const a3 = queue.run('a', async () => void started.push('a3'));
    tasks.a1.end();
    await until(() => started.length === 3);
    expect(started[2]).toBe('b1');
    tasks.a2.end();
    tasks.b1.end();
    await Promise.all([...all, a3]);
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it('lets a caller that gives up while waiting leave the line, and never runs its task', async () => {
    const queue = new FairQueue(1);
    const first = held();
    const running = queue.run('a', () => first.done);
    const controller = new AbortController();
    let ran = false;
    const abandoned = queue.run('b', async () => void (ran = true), controller.signal);
    controller.abort(new Error('The caller went away'));
    await expect(abandoned).rejects.toThrow('The caller went away');
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    first.end();
    await running;
    await queue.run('c', async () => undefined);
    expect(ran).toBe(false);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never held');
}
