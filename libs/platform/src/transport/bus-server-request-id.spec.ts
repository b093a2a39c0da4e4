import { defineRpc, systemCaller } from '@app/contracts';
import { z } from 'zod';
import { AppLogger } from '../logging/logger';
import { currentRequestContext } from '../logging/request-context';
import { BusServer } from './bus-server';
import { BUS_HEADERS, decode, encode } from './codec';
import { InProcessBus } from './in-process-bus';
import { RpcClient } from './rpc-client';

const WHO = defineRpc({
  subject: 'probe.who.get',
  request: z.object({}).strict(),
  response: z.object({ request_id: z.string().nullable() }),
  description: 'test rpc: the request id the handler runs under',
});

describe('BusServer: the request id a handler runs under', () => {
  let bus: InProcessBus;
  let server: BusServer;
  let sent: Record<string, string>[];

  beforeEach(async () => {
    bus = new InProcessBus();
    sent = [];
    const request = bus.request.bind(bus);
    bus.request = (subject, data, headers, timeoutMs) => {
      sent.push(headers);
      return request(subject, data, headers, timeoutMs);
    };
    server = new BusServer(bus, { service: 'probe' }, new AppLogger({ service: 'probe', level: 'error', format: 'json', sink: () => {} }));
    server.addHandler(WHO.subject, async () => ({ request_id: currentRequestContext()?.request_id ?? null }), false, { contract: WHO });
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
  });
  afterEach(async () => {
    await server.close();
    await bus.drain();
  });

  it("is the caller's, from the envelope: the RPC client sends no x-request-id header", async () => {
    const answer = await new RpcClient(bus, 2_000).call(WHO, {}, systemCaller('req-from-envelope'));
    expect(answer).toEqual({ request_id: 'req-from-envelope' });
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty(BUS_HEADERS.requestId);
  });

  it("is the x-request-id header's when one comes (a caller of an earlier version)", async () => {
    const reply = await bus.request(
      WHO.subject,
      encode({ caller: systemCaller('in-envelope'), data: {} }),
      { [BUS_HEADERS.requestId]: 'in-header' },
      2_000,
    );
    expect(decode(reply.data)).toEqual({ ok: true, data: { request_id: 'in-header' } });
  });
});
