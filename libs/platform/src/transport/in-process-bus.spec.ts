import { decode, encode } from './codec';
import { InProcessBus, subjectMatches } from './in-process-bus';

describe('subjectMatches (NATS wildcards)', () => {
  it.each([
    ['events.>', 'events.chat.exchange.completed', true],
    ['events.>', 'events', false],
    ['events.*.created', 'events.user.created', true],
    ['events.*.created', 'events.user.deleted', false],
    ['events.*', 'events.user.created', false],
    ['chat.health.check', 'chat.health.check', true],
    ['chat.health.check', 'chat.health', false],
  ])('%s against %s is %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});

describe('the in-process request routing', () => {
  it('follows responders that come and go, per queue group, with a wildcard subject too', async () => {
    const bus = new InProcessBus('p', { startupWindowMs: 0 });
    const served: string[] = [];
    const serve = (name: string, subject = 'svc.thing.get', queue = 'svc') =>
      bus.serve(subject, queue, (request) => (served.push(name), request.respond(encode(name))));
    const ask = async () => decode((await bus.request('svc.thing.get', encode({}), {}, 1000)).data);
    const a = await serve('a');
    expect([await ask(), await ask()]).toEqual(['a', 'a']);
    await serve('b');
    expect(new Set([await ask(), await ask()])).toEqual(new Set(['a', 'b']));
    await a.close();
    expect([await ask(), await ask()]).toEqual(['b', 'b']);
    // Another queue group (a wildcard) gets its own copy of each request.
    await serve('audit', 'svc.*.get', 'audit');
    served.length = 0;
    await ask();
    await new Promise((r) => setImmediate(r));
    expect(served.sort()).toEqual(['audit', 'b']);
    await bus.drain();
  });
});

describe('the in-process event log', () => {
  const options = (durable: string, subject = 'events.thing.*') => ({ durable, subject, maxDeliver: 3, backoffMs: [1] });
  const waitFor = async (predicate: () => boolean) => {
    for (let i = 0; i < 1_000 && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(predicate()).toBe(true);
  };
  let bus: InProcessBus;

  afterEach(async () => {
    await bus.drain();
  });

  it('holds an event only until every durable consumer has acknowledged it: bounded over many events', async () => {
    bus = new InProcessBus('', { startupWindowMs: 0 });
    const seen = { a: 0, b: 0 };
    await bus.consumeEvents(options('a'), async () => (seen.a++, 'ack'));
    await bus.consumeEvents(options('b'), async () => (seen.b++, 'ack'));
    let most = 0;
    for (let i = 0; i < 20_000; i++) {
      await bus.publishEvent('events.thing.happened', encode({ i }), {}, `e-${i}`);
      most = Math.max(most, bus.retainedEvents);
      if (i % 500 === 0) await new Promise((r) => setImmediate(r));
    }
    await waitFor(() => seen.a === 20_000 && seen.b === 20_000);
    expect(bus.retainedEvents).toBe(0);
    // Never more than what was published since the consumers last caught up.
    expect(most).toBeLessThanOrEqual(501);
  });

  it('settles an event once every consumer has it, after its retries', async () => {
    bus = new InProcessBus('', { startupWindowMs: 0 });
    let failures = 2;
    const acked: string[] = [];
    await bus.consumeEvents(options('steady'), async () => (acked.push('steady'), 'ack'));
    await bus.consumeEvents(options('flaky'), async () => (failures-- > 0 ? 'retry' : (acked.push('flaky'), 'ack')));
    await bus.publishEvent('events.thing.happened', encode({}), {}, 'e-1');
    await bus.eventSettled('e-1');
    expect(acked.sort()).toEqual(['flaky', 'steady']);
    expect(bus.retainedEvents).toBe(0);
    // Nobody listens to this one: it is settled (and gone) at once.
    await bus.publishEvent('events.other.happened', encode({}), {}, 'e-2');
    await bus.eventSettled('e-2');
    expect(bus.retainedEvents).toBe(0);
  });

  it('keeps what a closed durable consumer has not acknowledged, and delivers it when it comes back', async () => {
    bus = new InProcessBus('', { startupWindowMs: 0 });
    const seen: unknown[] = [];
    const subscription = await bus.consumeEvents(options('memory'), async (event) => (seen.push(decode(event.data)), 'ack'));
    await subscription.close();
    for (let i = 0; i < 3; i++) await bus.publishEvent('events.thing.happened', encode(i), {}, `e-${i}`);
    let settled = false;
    void bus.eventSettled('e-2').then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(bus.retainedEvents).toBe(3);
    expect(settled).toBe(false);

    await bus.consumeEvents(options('memory'), async (event) => (seen.push(decode(event.data)), 'ack'));
    await waitFor(() => settled);
    expect(seen).toEqual([0, 1, 2]);
    expect(bus.retainedEvents).toBe(0);
  });

  it('while services start, keeps every event for a consumer that registers late', async () => {
    bus = new InProcessBus('', { startupWindowMs: 60_000 });
    const early: unknown[] = [];
    const late: unknown[] = [];
    await bus.consumeEvents(options('early'), async (event) => (early.push(decode(event.data)), 'ack'));
    await bus.publishEvent('events.thing.happened', encode('before'), {}, 'e-1');
    await waitFor(() => early.length === 1);
    expect(bus.retainedEvents).toBe(1);

    await bus.consumeEvents(options('late'), async (event) => (late.push(decode(event.data)), 'ack'));
    await waitFor(() => late.length === 1);
    expect(late).toEqual(['before']);
    bus.consumersRegistered();
    expect(bus.retainedEvents).toBe(0);
    await bus.eventSettled('e-1');
  });

  it('refuses a publish beyond its bound instead of dropping anything, and drops a repeated message id', async () => {
    bus = new InProcessBus('', { startupWindowMs: 0, maxEvents: 2 });
    const subscription = await bus.consumeEvents(options('slow'), async () => 'ack');
    await subscription.close();
    await bus.publishEvent('events.thing.happened', encode(1), {}, 'e-1');
    await bus.publishEvent('events.thing.happened', encode(1), {}, 'e-1');
    await bus.publishEvent('events.thing.happened', encode(2), {}, 'e-2');
    await expect(bus.publishEvent('events.thing.happened', encode(3), {}, 'e-3')).rejects.toThrow(/holds 2 events/);
    expect(bus.retainedEvents).toBe(2);
  });
});
