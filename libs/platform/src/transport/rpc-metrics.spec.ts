import { defineRpc, systemCaller } from '@app/contracts';
import { z } from 'zod';
import { METRIC_NAMES, platformMetrics } from '../telemetry/metrics';
import { startMetricsServer, type MetricsServer } from '../telemetry/metrics-server';
import { encode } from './codec';
import { InProcessBus } from './in-process-bus';
import { RpcClient } from './rpc-client';

const contract = (subject: string) =>
  defineRpc({ subject, request: z.object({}), response: z.object({ n: z.number() }), description: 'test' });
const OK = contract('probe.metrics.ok');
const FAILING = contract('probe.metrics.failing');
const SILENT = contract('probe.metrics.silent');
const MALFORMED = contract('probe.metrics.malformed');
const NOBODY = contract('probe.metrics.nobody');

/** `{rpc_subject="..",outcome=".."}` of every series of the bus RPC histogram, with its count. */
async function rpcCounts(server: MetricsServer): Promise<Record<string, number>> {
  const text = await (await fetch(server.url)).text();
  const counts: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${METRIC_NAMES.busRpcDuration}_count\\{rpc_subject="([^"]+)",outcome="([^"]+)"\\} (\\d+)$`).exec(line);
    if (match) counts[`${match[1]} ${match[2]}`] = Number(match[3]);
  }
  return counts;
}

describe('RpcClient: every request/reply is measured with its outcome (assistant_bus_rpc_duration_seconds)', () => {
  let bus: InProcessBus;
  let client: RpcClient;
  let server: MetricsServer;

  beforeAll(async () => {
    server = await startMetricsServer({ serviceName: 'rpc-test', port: 0, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  beforeEach(async () => {
    bus = new InProcessBus();
    client = new RpcClient(bus, 200);
    await bus.serve(OK.subject, 'probe', (request) => request.respond(encode({ ok: true, data: { n: 1 } })));
    await bus.serve(FAILING.subject, 'probe', (request) =>
      request.respond(encode({ ok: false, error: { status: 404, detail: 'Not found', code: 'not_found' } })),
    );
    await bus.serve(SILENT.subject, 'probe', () => undefined);
    await bus.serve(MALFORMED.subject, 'probe', (request) => request.respond(new TextEncoder().encode('not json')));
  });
  afterEach(() => bus.drain());

  it('records ok, error (an error answer or a malformed one), timeout and no_responders, once per call', async () => {
    expect(platformMetrics.enabled).toBe(true);
    const caller = systemCaller('metrics-test');
    await client.call(OK, {}, caller);
    await client.call(OK, {}, caller);
    await expect(client.call(FAILING, {}, caller)).rejects.toMatchObject({ shape: { status: 404 } });
    await expect(client.call(MALFORMED, {}, caller)).rejects.toMatchObject({ shape: { status: 502 } });
    await expect(client.call(SILENT, {}, caller)).rejects.toMatchObject({ shape: { status: 504 } });
    await expect(client.call(NOBODY, {}, caller)).rejects.toMatchObject({ shape: { status: 503 } });
    expect(await rpcCounts(server)).toEqual({
      'probe.metrics.ok ok': 2,
      'probe.metrics.failing error': 1,
      'probe.metrics.malformed error': 1,
      'probe.metrics.silent timeout': 1,
      'probe.metrics.nobody no_responders': 1,
    });
  });
});
