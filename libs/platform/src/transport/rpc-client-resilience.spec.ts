import { defineRpc, defineStream, systemCaller } from '@app/contracts';
import { z } from 'zod';
import { RpcCallError } from '../errors/domain-error';
import { BusPayloadTooLargeError, type IncomingRequest } from './bus';
import { BUS_HEADERS, encode } from './codec';
import { InProcessBus } from './in-process-bus';
import { RpcClient } from './rpc-client';

const READ = defineRpc({ subject: 'memory.read.run', request: z.object({}), response: z.object({ n: z.number() }), description: 'test' });
const OTHER = defineRpc({ subject: 'files.read.run', request: z.object({}), response: z.object({ n: z.number() }), description: 'test' });
const REPLY = defineStream({
  subject: 'chat.reply.run',
  request: z.object({}).strict(),
  chunk: z.object({ n: z.number() }),
  description: 'test stream',
});

const caller = systemCaller('resilience');
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as RpcCallError,
  );

describe('RpcClient: a dead or frozen dependency is not waited on', () => {
  let bus: InProcessBus;
  beforeEach(() => (bus = new InProcessBus()));
  afterEach(() => bus.drain());

  it('a timeout is a 504 that says when to try again', async () => {
    await bus.serve(READ.subject, 'memory', () => undefined);
    const error = await failureOf(new RpcClient(bus, 50).call(READ, {}, caller));
    expect(error?.shape).toMatchObject({ status: 504, code: 'timeout' });
    expect(error?.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('after three calls in a row unanswered, refuses at once (503, Retry-After) and fails the calls still waiting', async () => {
    const frozen: IncomingRequest[] = [];
    await bus.serve(READ.subject, 'memory', (request) => void frozen.push(request));
    await bus.serve(OTHER.subject, 'files', (request) => request.respond(encode({ ok: true, data: { n: 1 } })));
    const client = new RpcClient(bus, 2_000, { breaker: { failureThreshold: 3, openMs: 60_000 } });

    // A call with a long deadline waits...
    const waiting = failureOf(client.call(READ, {}, caller));
    // ...while three short ones time out.
    for (let i = 0; i < 3; i++) expect((await failureOf(client.call(READ, {}, caller, { timeoutMs: 20 })))?.shape.status).toBe(504);

    const stillWaiting = await waiting;
    expect(stillWaiting?.shape).toMatchObject({ status: 503, code: 'unavailable' });
    expect(stillWaiting?.retryAfterSeconds).toBeGreaterThan(0);
    const sent = frozen.length;
    const refused = await failureOf(client.call(READ, {}, caller));
    expect(refused?.shape).toMatchObject({ status: 503, detail: expect.stringMatching(/memory service is not answering/) });
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    expect(frozen.length).toBe(sent); // refused without being sent
    expect(client.isKnownDown(READ.subject)).toBe(true);
    // Another service is not concerned.
    await expect(client.call(OTHER, {}, caller)).resolves.toEqual({ n: 1 });
    expect(client.isKnownDown(OTHER.subject)).toBe(false);
    // The call given up on when the circuit opened is answered late: that does not close the circuit.
    frozen[0].respond(encode({ ok: true, data: { n: 2 } }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.isKnownDown(READ.subject)).toBe(true);
  });

  it('a request the bus cannot carry is a 413 that says so, and leaves the circuit closed', async () => {
    let served = 0;
    await bus.serve(READ.subject, 'memory', (request) => {
      served++;
      request.respond(encode({ ok: true, data: { n: 1 } }));
    });
    const request = bus.request.bind(bus);
    let refuse = true;
    jest
      .spyOn(bus, 'request')
      .mockImplementation((subject, data, headers, timeoutMs) =>
        refuse ? Promise.reject(new BusPayloadTooLargeError(subject, 3_000_000, 1024 * 1024)) : request(subject, data, headers, timeoutMs),
      );
    const client = new RpcClient(bus, 1_000, { breaker: { failureThreshold: 1 } });
    for (let i = 0; i < 3; i++) {
      const error = await failureOf(client.call(READ, {}, caller));
      expect(error?.shape).toEqual({
        status: 413,
        code: 'payload_too_large',
        detail: 'This request is too large to pass on to the memory service (at most 1024 KB).',
      });
    }
    expect(client.isKnownDown(READ.subject)).toBe(false);
    refuse = false;
    await expect(client.call(READ, {}, caller)).resolves.toEqual({ n: 1 });
    expect(served).toBe(1);
  });

  it('a service that answers with an error of its own (a 503: its database is away) is there: its circuit stays closed', async () => {
    await bus.serve(READ.subject, 'memory', (request) =>
      request.respond(encode({ ok: false, error: { status: 503, detail: 'database away', code: 'unavailable', retry_after: 7 } })),
    );
    const client = new RpcClient(bus, 1_000, { breaker: { failureThreshold: 1 } });
    for (let i = 0; i < 3; i++) {
      const error = await failureOf(client.call(READ, {}, caller));
      expect(error?.shape.detail).toBe('database away');
      expect(error?.retryAfterSeconds).toBe(7); // the service's own hint travels with its error
    }
    expect(client.isKnownDown(READ.subject)).toBe(false);
  });

  it('after the open period, asks the health subject, and lets the calls go again once the service answers it', async () => {
    let alive = false;
    let probes = 0;
    await bus.serve(READ.subject, 'memory', (request) => alive && request.respond(encode({ ok: true, data: { n: 3 } })));
    await bus.serve('memory.health.check', 'memory', (request) => {
      probes++;
      if (alive) request.respond(encode({ ok: true, data: { status: 'ok' } }));
    });
    const client = new RpcClient(bus, 50, { breaker: { failureThreshold: 1, openMs: 30 } });
    await failureOf(client.call(READ, {}, caller));
    await new Promise((resolve) => setTimeout(resolve, 40));
    // Still frozen: the probe gets no answer, the call is refused without being sent.
    expect((await failureOf(client.call(READ, {}, caller)))?.shape.detail).toMatch(/not answering/);
    expect(probes).toBe(1);
    alive = true;
    await new Promise((resolve) => setTimeout(resolve, 40));
    await expect(client.call(READ, {}, caller)).resolves.toEqual({ n: 3 });
    expect(probes).toBe(2);
    expect(client.isKnownDown(READ.subject)).toBe(false);
  });

  it('a probe after the open period closes the circuit again once the service answers', async () => {
    let alive = false;
    await bus.serve(READ.subject, 'memory', (request) => alive && request.respond(encode({ ok: true, data: { n: 2 } })));
    const client = new RpcClient(bus, 20, { breaker: { failureThreshold: 1, openMs: 50 } });
    await failureOf(client.call(READ, {}, caller));
    expect(client.isKnownDown(READ.subject)).toBe(true);
    alive = true;
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(client.call(READ, {}, caller)).resolves.toEqual({ n: 2 });
    expect(client.isKnownDown(READ.subject)).toBe(false);
  });
});

describe('RpcClient.stream: a stream nobody accepts in time', () => {
  let bus: InProcessBus;
  beforeEach(() => (bus = new InProcessBus()));
  afterEach(() => bus.drain());

  it('is asked once more, with a deadline the service can check, then answered 503 with Retry-After (not the idle timeout)', async () => {
    const calls: IncomingRequest[] = [];
    await bus.serve(REPLY.subject, 'chat', (request) => void calls.push(request)); // took the request, then died
    const client = new RpcClient(bus, 120_000);
    const before = Date.now();
    const error = await failureOf(client.stream(REPLY, {}, caller, { acceptTimeoutMs: 30, retryUnaccepted: true }).next());
    expect(error?.shape).toMatchObject({ status: 503, code: 'unavailable', detail: expect.stringMatching(/did not take the request/) });
    expect(error?.retryAfterSeconds).toBeGreaterThan(0);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      const acceptBy = Number(call.headers[BUS_HEADERS.streamAcceptBy]);
      expect(acceptBy).toBeGreaterThanOrEqual(before + 30);
    }
  });

  it('goes to another replica when the first never accepted, and streams from it', async () => {
    let turn = 0;
    await bus.serve(REPLY.subject, 'chat', (request) => {
      if (turn++ === 0) return; // the replica that died with the request
      request.respond(encode({ ok: true, data: { accepted: true } }));
      const inbox = request.headers[BUS_HEADERS.streamInbox];
      bus.publish(inbox, encode({ ok: true, data: { n: 5 } }), { [BUS_HEADERS.streamSeq]: '0' });
      bus.publish(inbox, encode({ ok: true, data: null }), { [BUS_HEADERS.streamSeq]: '1', [BUS_HEADERS.streamEnd]: '1' });
    });
    const chunks: unknown[] = [];
    for await (const chunk of new RpcClient(bus, 120_000).stream(REPLY, {}, caller, { acceptTimeoutMs: 30, retryUnaccepted: true }))
      chunks.push(chunk);
    expect(chunks).toEqual([{ n: 5 }]);
    expect(turn).toBe(2);
  });

  it('without retryUnaccepted, asks once', async () => {
    let calls = 0;
    await bus.serve(REPLY.subject, 'chat', () => void calls++);
    const error = await failureOf(new RpcClient(bus, 120_000).stream(REPLY, {}, caller, { acceptTimeoutMs: 30 }).next());
    expect(error?.shape.status).toBe(503);
    expect(calls).toBe(1);
  });
});
