import { CircuitBreakers, CircuitOpenError } from './circuit-breaker';

function breakersAt(failureThreshold = 3, openMs = 5_000) {
  let now = 0;
  const breakers = new CircuitBreakers({ failureThreshold, openMs, now: () => now });
  return { breakers, advance: (ms: number) => (now += ms) };
}

describe('CircuitBreakers: one circuit per dependency', () => {
  it('opens after the threshold of failures in a row, and refuses at once with the time left', () => {
    const { breakers, advance } = breakersAt(3);
    breakers.admit('memory').failed();
    breakers.admit('memory').failed();
    expect(breakers.state('memory')).toBe('closed');
    breakers.admit('memory').failed();
    expect(breakers.state('memory')).toBe('open');
    expect(breakers.isRefusing('memory')).toBe(true);
    advance(1_200);
    const refused = (() => {
      try {
        breakers.admit('memory');
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect((refused as CircuitOpenError).retryAfterSeconds).toBe(4);
    // Another dependency is not concerned.
    expect(() => breakers.admit('chat').answered()).not.toThrow();
  });

  it('an answer in between starts the count again (a dead replica among live ones does not open it)', () => {
    const { breakers } = breakersAt(3);
    breakers.admit('chat').failed();
    breakers.admit('chat').failed();
    breakers.admit('chat').answered();
    breakers.admit('chat').failed();
    breakers.admit('chat').failed();
    expect(breakers.state('chat')).toBe('closed');
  });

  it('half-open: one probe goes through while the others are still refused; an answer closes it', () => {
    const { breakers, advance } = breakersAt(1);
    breakers.admit('memory').failed();
    advance(5_000);
    expect(breakers.state('memory')).toBe('half-open');
    const probe = breakers.admit('memory');
    expect(() => breakers.admit('memory')).toThrow(CircuitOpenError);
    probe.answered();
    expect(breakers.state('memory')).toBe('closed');
    expect(() => breakers.admit('memory').answered()).not.toThrow();
  });

  it('half-open: a failed probe opens it again for the whole period', () => {
    const { breakers, advance } = breakersAt(3);
    for (let i = 0; i < 3; i++) breakers.admit('memory').failed();
    advance(5_000);
    breakers.admit('memory').failed();
    expect(breakers.state('memory')).toBe('open');
    advance(4_999);
    expect(() => breakers.admit('memory')).toThrow(CircuitOpenError);
  });

  it('a probe released without a verdict (the caller gave up) lets the next call probe', () => {
    const { breakers, advance } = breakersAt(1);
    breakers.admit('memory').failed();
    advance(5_000);
    breakers.admit('memory').released();
    expect(() => breakers.admit('memory')).not.toThrow();
  });

  it('tells the calls in flight when it opens, once', () => {
    const { breakers } = breakersAt(2);
    const tripped = jest.fn();
    breakers.onTrip('memory', tripped);
    const first = breakers.admit('memory');
    const second = breakers.admit('memory');
    first.failed();
    expect(tripped).not.toHaveBeenCalled();
    second.failed();
    second.failed(); // reported twice: counted once
    expect(tripped).toHaveBeenCalledTimes(1);
  });
});
