import { defineStream, systemCaller } from '@app/contracts';
import { z } from 'zod';
import { RpcCallError } from '../errors/domain-error';
import type { Headers, IncomingRequest } from './bus';
import { BUS_HEADERS, decode, encode } from './codec';
import { InProcessBus } from './in-process-bus';
import { RpcClient } from './rpc-client';
import { StreamInbox, type Clock, type StreamFailureCause } from './stream-inbox';

/** A clock the test moves by hand: `advance` runs every tick that falls due, in order. */
class ManualClock implements Clock {
  private time = 0;
  private readonly timers = new Set<{ ms: number; due: number; tick: () => void }>();

  now(): number {
    return this.time;
  }

  every(ms: number, tick: () => void): { cancel(): void } {
    const timer = { ms, due: this.time + ms, tick };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.due - b.due)[0];
      if (!next || next.due > end) break;
      this.time = next.due;
      next.due += next.ms;
      next.tick();
    }
    this.time = end;
  }

  /**
   * The process stalls for `ms` (its event loop held): no tick runs meanwhile; then each timer that
   * fell due ticks once, as Node runs a late interval once and schedules the next from then.
   */
  stall(ms: number): void {
    this.time += ms;
    for (const timer of [...this.timers].filter((t) => t.due <= this.time)) {
      timer.due = this.time + timer.ms;
      timer.tick();
    }
  }

  get timersRunning(): number {
    return this.timers.size;
  }
}

class StreamFailed extends Error {
  constructor(readonly why: StreamFailureCause) {
    super(why);
  }
}

const frame = (seq: number, end = false): Headers => ({
  [BUS_HEADERS.streamSeq]: String(seq),
  ...(end ? { [BUS_HEADERS.streamEnd]: '1' } : {}),
});
const heartbeat = (sent: number): Headers => ({ [BUS_HEADERS.streamSeq]: String(sent), [BUS_HEADERS.streamHeartbeat]: '1' });
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
/** Lets the in-process bus deliver what was published (it delivers on a later tick, as a socket would). */
const delivered = () => new Promise((resolve) => setImmediate(resolve));

function inbox(clock: ManualClock, idleTimeoutMs = 120_000) {
  return new StreamInbox({ idleTimeoutMs, failure: (cause) => new StreamFailed(cause), clock });
}

describe('StreamInbox (the consumer of a stream)', () => {
  it('hands the frames out in order, whatever order they arrive in', async () => {
    const frames = inbox(new ManualClock());
    frames.receive(frame(1), bytes('b'));
    frames.receive(frame(0), bytes('a'));
    frames.receive(frame(2, true), bytes('c'));
    expect(text((await frames.take()).data)).toBe('a');
    expect(text((await frames.take()).data)).toBe('b');
    expect(await frames.take()).toEqual({ data: bytes('c'), end: true });
  });

  it('fails a stream whose producer went silent for the allowed number of heartbeats, not before', async () => {
    const clock = new ManualClock();
    const frames = inbox(clock);
    frames.watch(1_000, 3);
    const next = frames.take();
    let failure: unknown;
    next.catch((error: unknown) => (failure = error));
    clock.advance(2_900);
    await Promise.resolve();
    expect(failure).toBeUndefined();
    clock.advance(700);
    await expect(next).rejects.toMatchObject({ why: 'silent' });
    expect(clock.timersRunning).toBe(0);
  });

  it("takes a stall of its own process for no producer's silence: the heartbeats that waited unread are heard first", async () => {
    const clock = new ManualClock();
    const stream = inbox(clock);
    stream.watch(1_000, 3);
    stream.receive(heartbeat(0), new Uint8Array());
    clock.advance(900);
    // Blocked for 5 s: the producer's heartbeats of that time wait in the socket, read after the timers.
    clock.stall(5_000);
    stream.receive(heartbeat(0), new Uint8Array());
    clock.advance(2_500);
    stream.receive(frame(0, true), bytes('still here'));
    expect(text((await stream.take()).data)).toBe('still here');
  });

  it('still fails a dead producer while its own process keeps stalling, one tick later at most', async () => {
    const clock = new ManualClock();
    const stream = inbox(clock);
    stream.watch(1_000, 3);
    const taken = stream.take().catch((error: StreamFailed) => error.why);
    clock.stall(4_000); // deferred: this process was stalled
    clock.stall(4_000); // stalled again, but judged this time: nothing came
    expect(await taken).toBe('silent');
  });

  it('keeps a quiet stream alive as long as heartbeats come, until the idle limit', async () => {
    const clock = new ManualClock();
    const frames = inbox(clock, 10_000);
    frames.watch(1_000, 3);
    const next = frames.take();
    let failure: unknown;
    next.catch((error: unknown) => (failure = error));
    for (let second = 1; second <= 9; second++) {
      clock.advance(1_000);
      frames.receive(heartbeat(0), new Uint8Array(0));
    }
    await Promise.resolve();
    expect(failure).toBeUndefined();
    for (let second = 10; second <= 11; second++) {
      clock.advance(1_000);
      frames.receive(heartbeat(0), new Uint8Array(0));
    }
    await expect(next).rejects.toMatchObject({ why: 'idle' });
  });

  it('without heartbeats (a producer of an older version) only the idle limit applies', async () => {
    const clock = new ManualClock();
    const frames = inbox(clock, 5_000);
    const next = frames.take();
    clock.advance(4_000);
    frames.receive(frame(0), bytes('late but fine'));
    expect(text((await next).data)).toBe('late but fine');
    const after = frames.take();
    clock.advance(5_600);
    await expect(after).rejects.toMatchObject({ why: 'idle' });
  });

  it('notices a frame lost on the way when a heartbeat counts more frames than arrived, after handing out those before it', async () => {
    const frames = inbox(new ManualClock());
    frames.receive(frame(0), bytes('a'));
    frames.receive(frame(2), bytes('c'));
    frames.receive(heartbeat(3), new Uint8Array(0));
    expect(text((await frames.take()).data)).toBe('a');
    await expect(frames.take()).rejects.toMatchObject({ why: 'gap' });
  });

  it('takes no notice of a heartbeat when every frame it counts has arrived', async () => {
    const frames = inbox(new ManualClock());
    frames.receive(frame(0), bytes('a'));
    frames.receive(heartbeat(1), new Uint8Array(0));
    frames.receive(frame(1, true), bytes('b'));
    expect(text((await frames.take()).data)).toBe('a');
    expect((await frames.take()).end).toBe(true);
  });

  it('fails from outside (the bus connection dropped) after handing out what had arrived; the first failure wins', async () => {
    const frames = inbox(new ManualClock());
    frames.receive(frame(0), bytes('a'));
    frames.fail(new Error('bus down'));
    frames.fail(new Error('second'));
    expect(text((await frames.take()).data)).toBe('a');
    await expect(frames.take()).rejects.toThrow('bus down');
  });
});

const TICKS = defineStream({
  subject: 'probe.ticks.run',
  request: z.object({}).strict(),
  chunk: z.object({ n: z.number() }),
  description: 'test stream',
});

/** A producer scripted by the test, on the real in-process bus: it answers the call and publishes what it is told. */
async function scriptedProducer(bus: InProcessBus, terms: Record<string, unknown> = { accepted: true, heartbeat_ms: 1_000 }) {
  const calls: IncomingRequest[] = [];
  let arrived: () => void = () => {};
  const called = new Promise<void>((resolve) => (arrived = resolve));
  await bus.serve(TICKS.subject, 'probe', (request) => {
    calls.push(request);
    request.respond(encode({ ok: true, data: terms }));
    arrived();
  });
  let seq = 0;
  const inboxOf = () => calls[0].headers[BUS_HEADERS.streamInbox];
  return {
    calls,
    called,
    chunk: (n: number) => bus.publish(inboxOf(), encode({ ok: true, data: { n } }), frame(seq++)),
    end: () => bus.publish(inboxOf(), encode({ ok: true, data: null }), frame(seq++, true)),
    heartbeat: () => bus.publish(inboxOf(), new Uint8Array(0), heartbeat(seq)),
  };
}

describe('RpcClient.stream: liveness of the producer, on the in-process bus', () => {
  let bus: InProcessBus;
  let clock: ManualClock;
  let client: RpcClient;

  beforeEach(() => {
    bus = new InProcessBus();
    clock = new ManualClock();
    client = new RpcClient(bus, 120_000, { heartbeatMisses: 3, clock });
  });
  afterEach(() => bus.drain());

  it('asks for heartbeats, and relays the chunks of a live producer to the end', async () => {
    const producer = await scriptedProducer(bus);
    const stream = client.stream(TICKS, {}, systemCaller('r1'));
    const first = stream.next();
    await producer.called;
    expect(producer.calls[0].headers[BUS_HEADERS.streamHeartbeat]).toBe('1');
    producer.chunk(1);
    expect(await first).toEqual({ done: false, value: { n: 1 } });
    const second = stream.next();
    for (let i = 0; i < 5; i++) {
      clock.advance(1_000);
      producer.heartbeat();
      await delivered();
    }
    producer.chunk(2);
    producer.end();
    expect(await second).toEqual({ done: false, value: { n: 2 } });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('fails with a 503 within a few heartbeats when the producer dies mid-stream', async () => {
    const producer = await scriptedProducer(bus);
    const stream = client.stream(TICKS, {}, systemCaller('r2'));
    const first = stream.next();
    await producer.called;
    producer.chunk(1);
    expect(await first).toMatchObject({ value: { n: 1 } });
    const next = stream.next();
    clock.advance(3_600); // the producer is gone: no frame, no heartbeat
    const error = await next.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcCallError);
    expect((error as RpcCallError).shape).toMatchObject({ status: 503, code: 'unavailable' });
    expect((error as RpcCallError).shape.detail).toMatch(/^The probe service stopped responding while answering/);
    expect((error as RpcCallError).retryAfterSeconds).toBeGreaterThan(0);
  });

  it('with a producer that sends no heartbeats (an older version), waits for the idle limit only', async () => {
    const producer = await scriptedProducer(bus, { accepted: true });
    const stream = new RpcClient(bus, 10_000, { clock }).stream(TICKS, {}, systemCaller('r3'));
    const first = stream.next();
    await producer.called;
    clock.advance(8_000);
    producer.chunk(1);
    expect(await first).toMatchObject({ value: { n: 1 } });
    const next = stream.next();
    clock.advance(10_600);
    await expect(next).rejects.toMatchObject({ shape: { status: 504, code: 'timeout' } });
  });

  it('fails at once when the bus connection is lost', async () => {
    const producer = await scriptedProducer(bus);
    const stream = client.stream(TICKS, {}, systemCaller('r4'));
    const next = stream.next();
    await producer.called;
    await bus.drain();
    await expect(next).rejects.toMatchObject({ shape: { status: 503, detail: expect.stringMatching(/bus is unreachable/) } });
  });

  it('refuses to start at once while the bus is down', async () => {
    await bus.drain();
    await expect(client.stream(TICKS, {}, systemCaller('r5')).next()).rejects.toMatchObject({ shape: { status: 503 } });
  });

  it('stops waiting when its signal aborts', async () => {
    const producer = await scriptedProducer(bus);
    const abandon = new AbortController();
    const stream = client.stream(TICKS, {}, systemCaller('r6'), { signal: abandon.signal });
    const next = stream.next();
    await producer.called;
    abandon.abort(new Error('the gateway is stopping'));
    await expect(next).rejects.toThrow('the gateway is stopping');
  });

  it('the frames on the wire are the JSON envelopes, decoded by the client', async () => {
    const producer = await scriptedProducer(bus);
    const stream = client.stream(TICKS, {}, systemCaller('r7'));
    const first = stream.next();
    await producer.called;
    expect(decode(producer.calls[0].data)).toMatchObject({ caller: { request_id: 'r7' }, data: {} });
    producer.chunk(7);
    expect(await first).toMatchObject({ value: { n: 7 } });
  });
});
