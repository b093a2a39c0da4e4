import { defineStream, systemCaller } from '@app/contracts';
import { Observable } from 'rxjs';
import { z } from 'zod';
import { AppLogger } from '../logging/logger';
import { BusServer, STREAM_ACCEPT_MARGIN_MS } from './bus-server';
import { BUS_HEADERS, decode, encode } from './codec';
import { InProcessBus } from './in-process-bus';

const REPLY = defineStream({
  subject: 'probe.reply.run',
  request: z.object({}).strict(),
  chunk: z.object({ n: z.number() }),
  description: 'test stream',
});

describe('BusServer: a stream whose caller stopped waiting for its acceptance', () => {
  let bus: InProcessBus;
  let server: BusServer;
  let started: number;

  beforeEach(async () => {
    bus = new InProcessBus();
    started = 0;
    server = new BusServer(bus, { service: 'probe' }, new AppLogger({ service: 'probe', level: 'error', format: 'json', sink: () => {} }));
    server.addHandler(
      REPLY.subject,
      async () => {
        started++;
        return new Observable((subscriber) => subscriber.complete());
      },
      false,
      { contract: REPLY },
    );
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
  });
  afterEach(async () => {
    await server.close();
    await bus.drain();
  });

  const ask = (acceptBy: number, timeoutMs: number) =>
    bus.request(
      REPLY.subject,
      encode({ caller: systemCaller('t'), data: {} }),
      { [BUS_HEADERS.streamInbox]: bus.createInbox(), [BUS_HEADERS.streamAcceptBy]: String(acceptBy) },
      timeoutMs,
    );

  it('is started within its deadline', async () => {
    const answer = await ask(Date.now() + 60_000, 2_000);
    expect(decode(answer.data)).toMatchObject({ ok: true, data: { accepted: true } });
    expect(started).toBe(1);
  });

  it('is neither answered nor started past its deadline (the caller may have asked another replica)', async () => {
    await expect(ask(Date.now() - 1, 100)).rejects.toThrow();
    expect(started).toBe(0);
  });

  it('is not started so close to its deadline that its acceptance would come after it (STREAM_ACCEPT_MARGIN_MS)', async () => {
    await expect(ask(Date.now() + STREAM_ACCEPT_MARGIN_MS - 50, 100)).rejects.toThrow();
    expect(started).toBe(0);
    await ask(Date.now() + STREAM_ACCEPT_MARGIN_MS + 1_000, 2_000);
    expect(started).toBe(1);
  });
});
