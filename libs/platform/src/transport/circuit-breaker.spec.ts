import { CircuitBreakers, CircuitOpenError } from './circuit-breaker';

function breakersAt(failureThreshold = 3, openMs = 5_000, probe?: (dependency: string) => Promise<boolean>) {
  let now = 0;
  const breakers = new CircuitBreakers({ failureThreshold, openMs, now: () => now, probe });
  return { breakers, advance: (ms: number) => (now += ms) };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as CircuitOpenError,
  );

describe('CircuitBreakers: one circuit per dependency', () => {
  it('opens after the threshold of failures in a row, and refuses at once with the time left', async () => {
    const { breakers, advance } = breakersAt(3);
    (await breakers.admit('memory')).failed();
    (await breakers.admit('memory')).failed();
    expect(breakers.state('memory')).toBe('closed');
    (await breakers.admit('memory')).failed();
    expect(breakers.state('memory')).toBe('open');
    expect(breakers.isRefusing('memory')).toBe(true);
    advance(1_200);
    const refused = await refusal(breakers.admit('memory'));
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect(refused?.retryAfterSeconds).toBe(4);
    // Another dependency is not concerned.
    await expect(breakers.admit('chat')).resolves.toBeDefined();
  });

  it('an answer in between starts the count again (a dead replica among live ones does not open it)', async () => {
    const { breakers } = breakersAt(3);
    for (const verdict of ['failed', 'failed', 'answered', 'failed', 'failed'] as const) (await breakers.admit('chat'))[verdict]();
    expect(breakers.state('chat')).toBe('closed');
  });

  it('half-open without a probe: one call goes through while the others are still refused; an answer closes it', async () => {
    const { breakers, advance } = breakersAt(1);
    (await breakers.admit('memory')).failed();
    advance(5_000);
    expect(breakers.state('memory')).toBe('half-open');
    const probe = await breakers.admit('memory');
    expect(await refusal(breakers.admit('memory'))).toBeInstanceOf(CircuitOpenError);
    probe.answered();
    expect(breakers.state('memory')).toBe('closed');
    await expect(breakers.admit('memory')).resolves.toBeDefined();
  });

  it('half-open without a probe: a failed call opens it again for the whole period', async () => {
    const { breakers, advance } = breakersAt(3);
    for (let i = 0; i < 3; i++) (await breakers.admit('memory')).failed();
    advance(5_000);
    (await breakers.admit('memory')).failed();
    expect(breakers.state('memory')).toBe('open');
    advance(4_999);
    expect(await refusal(breakers.admit('memory'))).toBeInstanceOf(CircuitOpenError);
  });

  it('half-open with a probe: the calls wait for its one answer, then go (alive) or are refused (not)', async () => {
    let answer!: (alive: boolean) => void;
    const probe = jest.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const { breakers, advance } = breakersAt(1, 5_000, probe);
    (await breakers.admit('memory')).failed();
    advance(5_000);
    const waiting = [breakers.admit('memory'), breakers.admit('memory')];
    expect(breakers.isRefusing('memory')).toBe(true);
    answer(false);
    for (const call of waiting) expect(await refusal(call)).toBeInstanceOf(CircuitOpenError);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(breakers.state('memory')).toBe('open');

    advance(5_000);
    const next = breakers.admit('memory');
    answer(true);
    await expect(next).resolves.toBeDefined();
    expect(breakers.state('memory')).toBe('closed');
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('a probe call released without a verdict (the caller gave up) lets the next call probe', async () => {
    const { breakers, advance } = breakersAt(1);
    (await breakers.admit('memory')).failed();
    advance(5_000);
    (await breakers.admit('memory')).released();
    await expect(breakers.admit('memory')).resolves.toBeDefined();
  });

  it('tells the calls in flight when it opens, once', async () => {
    const { breakers } = breakersAt(2);
    const tripped = jest.fn();
    breakers.onTrip('memory', tripped);
    const first = await breakers.admit('memory');
    const second = await breakers.admit('memory');
    first.failed();
    expect(tripped).not.toHaveBeenCalled();
    second.failed();
    second.failed(); // reported twice: counted once
    expect(tripped).toHaveBeenCalledTimes(1);
  });
});
