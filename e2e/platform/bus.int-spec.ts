import { deleteEventStream, machine, uniqueName } from '@app/testing';
import {
  BusNoRespondersError,
  BusPayloadTooLargeError,
  BusTimeoutError,
  decode,
  encode,
  InProcessBus,
  NatsBus,
  type Bus,
  type IncomingEvent,
} from '@app/platform';
import { until } from '../support/until';

/** One contract, two implementations: the in-process bus must behave as NATS with JetStream does. */
describe.each([
  ['in-process', async (prefix: string): Promise<Bus> => new InProcessBus(prefix)],
  ['nats', (prefix: string): Promise<Bus> => NatsBus.connect({ url: machine.natsUrl, prefix, name: 'bus-test' })],
])('the %s bus', (kind, create) => {
  let bus: Bus;
  let prefix: string;

  beforeEach(async () => {
    prefix = uniqueName('bus');
    bus = await create(prefix);
  });

  afterEach(async () => {
    await bus.drain();
    if (kind === 'nats') await deleteEventStream(prefix);
  });

  it('answers a request, with headers, as bytes that the receiver cannot share with the sender', async () => {
    const sent = encode({ hello: 'world' });
    await bus.serve('svc.thing.get', 'svc', (request) => {
      const body = decode(request.data) as { hello: string };
      request.data[0] = 0; // scribbling on what was received must not reach the sender
      request.respond(encode({ got: body.hello, id: request.headers['x-request-id'] }));
    });
    const reply = await bus.request('svc.thing.get', sent, { 'x-request-id': 'r1' }, 2000);
    expect(decode(reply.data)).toEqual({ got: 'world', id: 'r1' });
    expect(decode(sent)).toEqual({ hello: 'world' });
  });

  it('answers with a reply larger than one NATS message (1 MB by default), whole, in order, with its headers', async () => {
    // 3.5 MB whose every byte says where it is: a part lost, repeated or out of order shows.
    const large = new Uint8Array(3.5 * 1024 * 1024);
    for (let i = 0; i < large.length; i++) large[i] = (i * 7 + (i >> 13)) & 0xff;
    await bus.serve('svc.large.get', 'svc', (request) =>
      request.respond(decode(request.data) === 'large' ? large : encode('small'), { 'x-status': 'ok' }),
    );
    const [first, second, small] = await Promise.all([
      bus.request('svc.large.get', encode('large'), {}, 10_000),
      bus.request('svc.large.get', encode('large'), {}, 10_000),
      bus.request('svc.large.get', encode('small'), {}, 10_000),
    ]);
    for (const reply of [first, second]) {
      expect(reply.data.length).toBe(large.length);
      expect(Buffer.compare(Buffer.from(reply.data), Buffer.from(large))).toBe(0);
      expect(reply.headers).toEqual({ 'x-status': 'ok' });
    }
    expect(decode(small.data)).toBe('small');
    expect(small.headers).toEqual({ 'x-status': 'ok' });
  });

  it('refuses a request larger than one NATS message at once (it cannot go in parts), and goes on serving', async () => {
    await bus.serve('svc.echo.size', 'svc', (request) => request.respond(encode(request.data.length)));
    const large = new Uint8Array(2 * 1024 * 1024);
    if (kind === 'nats') {
      const refusal = bus.request('svc.echo.size', large, {}, 10_000);
      await expect(refusal).rejects.toBeInstanceOf(BusPayloadTooLargeError);
      await expect(refusal).rejects.toMatchObject({ bytes: large.length, maxBytes: 1024 * 1024 });
    } else {
      // In one process nothing is sent anywhere: any size is handed over.
      expect(decode((await bus.request('svc.echo.size', large, {}, 10_000)).data)).toBe(large.length);
    }
    expect(decode((await bus.request('svc.echo.size', new Uint8Array(10), {}, 2000)).data)).toBe(10);
    expect(bus.connected).toBe(true);
  });

  it('says nobody answers a subject nobody serves, at once', async () => {
    const started = Date.now();
    await expect(bus.request('svc.nobody.here', encode({}), {}, 5000)).rejects.toBeInstanceOf(BusNoRespondersError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('times out a responder that never answers', async () => {
    await bus.serve('svc.slow.get', 'svc', () => undefined);
    await expect(bus.request('svc.slow.get', encode({}), {}, 150)).rejects.toBeInstanceOf(BusTimeoutError);
  });

  it('spreads requests over the replicas of a queue group', async () => {
    const served: string[] = [];
    for (const replica of ['a', 'b']) {
      await bus.serve('svc.spread.get', 'svc', (request) => {
        served.push(replica);
        request.respond(encode(replica));
      });
    }
    for (let i = 0; i < 20; i++) await bus.request('svc.spread.get', encode(i), {}, 2000);
    expect(served).toHaveLength(20);
    expect(new Set(served)).toEqual(new Set(['a', 'b']));
  });

  it('keeps subjects of another prefix apart', async () => {
    const other = await create(uniqueName('other'));
    try {
      await other.serve('svc.thing.get', 'svc', (request) => request.respond(encode('other')));
      await expect(bus.request('svc.thing.get', encode({}), {}, 1000)).rejects.toBeInstanceOf(BusNoRespondersError);
    } finally {
      await other.drain();
    }
  });

  it('delivers an event once per durable consumer, ignores a duplicate publish, and redelivers after a failure', async () => {
    const seen: { consumer: string; body: unknown; delivery: number }[] = [];
    let failuresLeft = 1;
    const handler = (consumer: string) => async (event: IncomingEvent) => {
      seen.push({ consumer, body: decode(event.data), delivery: event.deliveryCount });
      if (consumer === 'flaky' && failuresLeft-- > 0) return 'retry' as const;
      return 'ack' as const;
    };
    await bus.consumeEvents({ durable: 'steady', subject: 'events.thing.*', maxDeliver: 5, backoffMs: [50] }, handler('steady'));
    await bus.consumeEvents({ durable: 'flaky', subject: 'events.thing.happened', maxDeliver: 5, backoffMs: [50] }, handler('flaky'));
    await bus.publishEvent('events.thing.happened', encode({ n: 1 }), {}, 'id-1');
    await bus.publishEvent('events.thing.happened', encode({ n: 1 }), {}, 'id-1');
    await bus.publishEvent('events.other.happened', encode({ n: 2 }), {}, 'id-2');
    await until(
      'both consumers served, the flaky one twice',
      () => seen.filter((s) => s.consumer === 'flaky').length === 2 && seen.some((s) => s.consumer === 'steady'),
      10_000,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((s) => s.consumer === 'steady')).toEqual([{ consumer: 'steady', body: { n: 1 }, delivery: 1 }]);
    expect(seen.filter((s) => s.consumer === 'flaky')).toEqual([
      { consumer: 'flaky', body: { n: 1 }, delivery: 1 },
      { consumer: 'flaky', body: { n: 1 }, delivery: 2 },
    ]);
  });

  it('closing a consumer starts no more handling at once, without waiting for the event being handled; the rest goes to the next subscription promptly', async () => {
    const started: number[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = await bus.consumeEvents(
      { durable: 'closer', subject: 'events.close.*', maxDeliver: 5, backoffMs: [50] },
      async (event) => {
        started.push(decode(event.data) as number);
        await gate; // the first event's handler is slow (a model call, say)
        return 'ack';
      },
    );
    for (let n = 1; n <= 4; n++) await bus.publishEvent('events.close.n', encode(n), {}, `c-${n}`);
    await until('the first event being handled', () => started.length === 1, 10_000);
    let closed = false;
    void first.close().then(() => (closed = true));
    // Closed while the first handler still waits: closing did not wait for it, nor handle the others.
    await until('the consumer closed', () => closed, 10_000);
    expect(started).toEqual([1]);
    release();
    // The next subscription gets the others now, not after their ack deadline (30 s on NATS).
    const later: number[] = [];
    await bus.consumeEvents({ durable: 'closer', subject: 'events.close.*', maxDeliver: 5, backoffMs: [50] }, async (event) => {
      later.push(decode(event.data) as number);
      return 'ack';
    });
    await until('the events not handled given to the next subscription', () => [2, 3, 4].every((n) => later.includes(n)), 10_000);
    expect(started).toEqual([1]);
  });

  it('resumes a durable consumer where it stopped, delivering what was published meanwhile', async () => {
    const seen: unknown[] = [];
    const consume = () =>
      bus.consumeEvents({ durable: 'resumer', subject: 'events.resume.*', maxDeliver: 3, backoffMs: [50] }, async (event) => {
        seen.push(decode(event.data));
        return 'ack';
      });
    const first = await consume();
    await bus.publishEvent('events.resume.one', encode(1), {}, 'r-1');
    await until('the first event consumed', () => seen.length === 1, 10_000);
    await first.close();
    await bus.publishEvent('events.resume.two', encode(2), {}, 'r-2');
    await consume();
    await until('the second event consumed after the resume', () => seen.length === 2, 10_000);
    expect(seen).toEqual([1, 2]);
  });
});
