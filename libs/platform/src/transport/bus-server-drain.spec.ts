import { defineEvent, defineRpc, defineStream, systemCaller } from '@app/contracts';
import { Observable, Subject } from 'rxjs';
import { z } from 'zod';
import { AppLogger } from '../logging/logger';
import { BusNoRespondersError, type Headers } from './bus';
import { BusServer } from './bus-server';
import { BUS_HEADERS, decode, encode } from './codec';
import { InProcessBus } from './in-process-bus';
import { RpcClient } from './rpc-client';

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition never held');
}

const TICKS = defineStream({
  subject: 'probe.ticks.run',
  request: z.object({}).strict(),
  chunk: z.object({ n: z.number() }),
  description: 'test stream',
});
const SLOW = defineRpc({
  subject: 'probe.slow.run',
  request: z.object({}).strict(),
  response: z.object({ ok: z.boolean() }),
  description: 'test call',
});

const NOTED = defineEvent({
  subject: 'events.probe.noted',
  payload: z.object({ n: z.number() }),
  description: 'test event',
});

interface Message {
  headers: Headers;
  body: unknown;
}

/** A BusServer on the in-process bus serving one stream (values pushed by the test) and one slow call. */
async function serverWithHandlers(bus: InProcessBus) {
  const ticks = new Subject<{ n: number }>();
  let tornDown = false;
  let finishSlow: () => void = () => {};
  const server = new BusServer(
    bus,
    { service: 'probe', streamHeartbeatMs: 10 },
    new AppLogger({ service: 'probe', level: 'error', format: 'json', sink: () => {} }),
  );
  server.addHandler(
    TICKS.subject,
    async () =>
      new Observable((subscriber) => {
        const subscription = ticks.subscribe(subscriber);
        return () => {
          tornDown = true;
          subscription.unsubscribe();
        };
      }),
    false,
    { contract: TICKS },
  );
  server.addHandler(SLOW.subject, () => new Promise((resolve) => (finishSlow = () => resolve({ ok: true }))), false, { contract: SLOW });
  await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
  return { server, ticks, finishSlow: () => finishSlow(), tornDown: () => tornDown };
}

/** Calls the stream by hand, as a caller that understands heartbeats, and records every message on its inbox. */
async function openStream(bus: InProcessBus) {
  const inbox = bus.createInbox();
  const messages: Message[] = [];
  const waiters: (() => void)[] = [];
  await bus.subscribe(inbox, (m) => {
    messages.push({ headers: m.headers, body: m.data.length ? decode(m.data) : null });
    waiters.splice(0).forEach((wake) => wake());
  });
  const accepted = await bus.request(
    TICKS.subject,
    encode({ caller: systemCaller('t'), data: {} }),
    { [BUS_HEADERS.streamInbox]: inbox, [BUS_HEADERS.streamHeartbeat]: '1' },
    2_000,
  );
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return {
    accepted: decode(accepted.data),
    messages,
    until,
    frames: () => messages.filter((m) => !m.headers[BUS_HEADERS.streamHeartbeat]),
  };
}

describe('BusServer: heartbeats and draining', () => {
  let bus: InProcessBus;
  beforeEach(() => {
    bus = new InProcessBus();
  });
  afterEach(() => bus.drain());

  it('promises heartbeats to a caller that asks, sends them while the stream is open with the count of frames sent, and stops at the end', async () => {
    const { ticks } = await serverWithHandlers(bus);
    const stream = await openStream(bus);
    expect(stream.accepted).toEqual({ ok: true, data: { accepted: true, heartbeat_ms: 10 } });
    ticks.next({ n: 1 });
    await stream.until(() =>
      stream.messages.some((m) => m.headers[BUS_HEADERS.streamHeartbeat] === '1' && m.headers[BUS_HEADERS.streamSeq] === '1'),
    );
    ticks.complete();
    await stream.until(() => stream.frames().some((m) => m.headers[BUS_HEADERS.streamEnd] === '1'));
    expect(stream.frames().map((m) => m.body)).toEqual([
      { ok: true, data: { n: 1 } },
      { ok: true, data: null },
    ]);
  });

  it('stops the producer when its caller leaves before the end: the handler is torn down, the request is no longer in flight', async () => {
    const { server, ticks, tornDown } = await serverWithHandlers(bus);
    const client = new RpcClient(bus, 5_000);
    const stream = client.stream(TICKS, {}, systemCaller('leaves'));
    const first = stream.next();
    await until(() => server.inFlightCount === 1);
    ticks.next({ n: 1 });
    expect(await first).toEqual({ done: false, value: { n: 1 } });
    // The reader stops here (an HTTP client that went away): the generator is returned.
    await stream.return(undefined);
    await until(() => tornDown());
    expect(server.inFlightCount).toBe(0);
    // A stream read to its end sends no cancel after it.
    const whole = client.stream(TICKS, {}, systemCaller('stays'));
    const read = (async () => {
      const seen: unknown[] = [];
      for await (const chunk of whole) seen.push(chunk);
      return seen;
    })();
    await until(() => server.inFlightCount === 1);
    ticks.next({ n: 2 });
    ticks.complete();
    expect(await read).toEqual([{ n: 2 }]);
  });

  it('sends no heartbeat to a caller that did not ask (an older version)', async () => {
    await serverWithHandlers(bus);
    const reply = await bus.request(
      TICKS.subject,
      encode({ caller: systemCaller('t'), data: {} }),
      { [BUS_HEADERS.streamInbox]: bus.createInbox() },
      2_000,
    );
    expect(decode(reply.data)).toEqual({ ok: true, data: { accepted: true } });
  });

  it('on drain: stops taking requests, keeps serving the ones in flight to their end, and is idle after', async () => {
    const { server, ticks, finishSlow } = await serverWithHandlers(bus);
    const stream = await openStream(bus);
    const slow = bus.request(SLOW.subject, encode({ caller: systemCaller('s'), data: {} }), {}, 2_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.inFlightCount).toBe(2);

    await server.stopAccepting();
    await expect(bus.request(SLOW.subject, encode({ caller: systemCaller('n'), data: {} }), {}, 2_000)).rejects.toBeInstanceOf(
      BusNoRespondersError,
    );

    ticks.next({ n: 1 });
    ticks.complete();
    finishSlow();
    expect(decode((await slow).data)).toEqual({ ok: true, data: { ok: true } });
    expect(await server.idle(Date.now() + 5_000)).toBe(true);
    await stream.until(() => stream.frames().length === 2);
    expect(stream.frames().map((m) => m.body)).toEqual([
      { ok: true, data: { n: 1 } },
      { ok: true, data: null },
    ]);
  });

  it('ends what is still in flight when the grace period is over: exactly one terminal error frame, nothing after it', async () => {
    const { server, ticks, tornDown } = await serverWithHandlers(bus);
    const stream = await openStream(bus);
    const slow = bus.request(SLOW.subject, encode({ caller: systemCaller('s'), data: {} }), {}, 2_000);
    ticks.next({ n: 1 });
    await stream.until(() => stream.frames().length === 1);
    await server.stopAccepting();
    expect(await server.idle(Date.now() + 20)).toBe(false);

    const shape = {
      status: 503,
      detail: 'The probe service restarted before it could finish; please try again',
      code: 'unavailable' as const,
    };
    expect(server.abortInFlight(shape)).toBe(2);
    expect(decode((await slow).data)).toEqual({ ok: false, error: shape });
    await stream.until(() => stream.frames().length === 2);
    ticks.next({ n: 2 }); // too late: the stream is over
    ticks.complete();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(stream.frames().map((m) => [m.body, m.headers[BUS_HEADERS.streamEnd] ?? null])).toEqual([
      [{ ok: true, data: { n: 1 } }, null],
      [{ ok: false, error: shape }, '1'],
    ]);
    expect(tornDown()).toBe(true);
    expect(await server.idle(Date.now() + 1_000)).toBe(true);
  });

  it("on drain: waits for an event being handled (its service's database stays open under it), and it is acknowledged once", async () => {
    const server = new BusServer(
      bus,
      { service: 'probe' },
      new AppLogger({ service: 'probe', level: 'error', format: 'json', sink: () => {} }),
    );
    let finish: () => void = () => {};
    let started = 0;
    let handled = 0;
    server.addHandler(
      NOTED.subject,
      async () => {
        started++;
        await new Promise<void>((resolve) => (finish = resolve));
        handled++;
      },
      true,
      { contract: NOTED },
    );
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
    bus.consumersRegistered();
    const event = encode({ event_id: 'e-1', occurred_at: new Date().toISOString(), payload: { n: 1 } });
    await bus.publishEvent(NOTED.subject, event, {}, 'e-1');
    while (started === 0) await new Promise((resolve) => setImmediate(resolve));

    await server.stopAccepting();
    expect(server.inFlightCount).toBe(1);
    expect(await server.idle(Date.now() + 20)).toBe(false);
    finish();
    expect(await server.idle(Date.now() + 1_000)).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect({ started, handled, retained: bus.retainedEvents }).toEqual({ started: 1, handled: 1, retained: 0 });
  });
});
