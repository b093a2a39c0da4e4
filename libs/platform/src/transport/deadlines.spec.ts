import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { Deadlines, Waiting } from './deadlines';

class Call extends Waiting {
  expired = 0;
  constructor(
    readonly name: string,
    private readonly log: string[],
  ) {
    super();
  }
  expire(): void {
    this.expired++;
    this.log.push(this.name);
  }
}

/** Moves the clock, then lets what a deadline due by then does run (it runs after that turn's input: setImmediate). */
const advance = async (ms: number) => {
  jest.advanceTimersByTime(ms);
  await new Promise(setImmediate);
};

describe('Deadlines: the timeouts of the requests in flight, one timer per duration', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  const setup = () => {
    const deadlines = new Deadlines(() => Date.now());
    const log: string[] = [];
    const call = (name: string) => new Call(name, log);
    return { deadlines, log, call };
  };

  it('expires each wait once, at its own deadline, in order, unless it was cancelled', async () => {
    const { deadlines, log, call } = setup();
    const a = call('a');
    const b = call('b');
    const c = call('c');
    deadlines.add(100, a);
    await advance(30);
    deadlines.add(100, b);
    deadlines.add(100, c);
    deadlines.cancel(b);
    await advance(69);
    expect(log).toEqual([]);
    await advance(1);
    expect(log).toEqual(['a']);
    await advance(29);
    expect(log).toEqual(['a']);
    await advance(1);
    expect(log).toEqual(['a', 'c']);
    await advance(1_000);
    expect([a.expired, b.expired, c.expired]).toEqual([1, 0, 1]);
    expect(deadlines.waiting).toBe(0);
    deadlines.cancel(a); // over already: harmless
  });

  it('keeps durations apart: a short deadline added after a long one expires first', async () => {
    const { deadlines, log, call } = setup();
    deadlines.add(1_000, call('long'));
    deadlines.add(10, call('short'));
    await advance(10);
    expect(log).toEqual(['short']);
    await advance(990);
    expect(log).toEqual(['short', 'long']);
  });

  it('the head cancelled, the timer still fires for the next one at its own time', async () => {
    const { deadlines, log, call } = setup();
    const first = call('first');
    deadlines.add(100, first);
    await advance(50);
    deadlines.add(100, call('second'));
    deadlines.cancel(first);
    await advance(50); // the timer armed for `first` fires, finds nothing due, re-arms
    expect(log).toEqual([]);
    await advance(49);
    expect(log).toEqual([]);
    await advance(1);
    expect(log).toEqual(['second']);
  });

  it('stays small over many waits answered in time, and forgets a duration once nothing waits on it', async () => {
    const { deadlines, log, call } = setup();
    for (let i = 0; i < 100_000; i++) {
      const waiting = call(`c${i}`);
      deadlines.add(30_000, waiting);
      if (i % 1000 !== 999) deadlines.cancel(waiting);
      else await advance(1);
    }
    // The hundred never answered are still waiting, the rest is gone.
    expect(deadlines.waiting).toBe(100);
    await advance(30_000);
    expect(log).toHaveLength(100);
    expect(deadlines.waiting).toBe(0);
    expect(deadlines.lanesKept).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('holds the process only while something waits', async () => {
    const { deadlines, call } = setup();
    const waiting = call('a');
    deadlines.add(100, waiting);
    const [timer] = (deadlines as unknown as { lanes: Map<number, { timer?: NodeJS.Timeout }> }).lanes.values();
    expect(timer.timer?.hasRef()).toBe(true);
    deadlines.cancel(waiting);
    expect(timer.timer?.hasRef()).toBe(false);
  });
});

describe('Deadlines on a busy event loop', () => {
  /** A wait answered by the first bytes on a socket, or over at its deadline: whichever comes first wins. */
  class Answerable extends Waiting {
    over = false;
    constructor(private readonly settle: (how: 'answered' | 'expired') => void) {
      super();
    }
    end(how: 'answered' | 'expired'): void {
      if (this.over) return;
      this.over = true;
      this.settle(how);
    }
    expire(): void {
      this.end('expired');
    }
  }

  it('lets an answer that came while the loop was busy past the deadline win over it (its timer runs before that input is read)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const [receiving] = await Promise.all([accepted, new Promise((resolve) => client.once('connect', resolve))]);
    try {
      const deadlines = new Deadlines();
      const outcome = new Promise<'answered' | 'expired'>((resolve) => {
        const wait = new Answerable(resolve);
        receiving.once('data', () => {
          deadlines.cancel(wait);
          wait.end('answered');
        });
        // Busy at the end of a turn of the loop: the next turn runs its due timers first, then reads input.
        setImmediate(() => {
          deadlines.add(5, wait);
          client.write('the answer'); // on the loopback: waiting to be read at once
          const busyUntil = Date.now() + 50;
          while (Date.now() < busyUntil); // the loop busy past the deadline
        });
      });
      expect(await outcome).toBe('answered');
    } finally {
      client.destroy();
      receiving.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
