import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, ProbeGatewayModule, probeService, TRANSPORTS, type TestEnvironment } from '@app/testing';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';

// One SDK for the file: the OpenTelemetry API registers its globals once per process.
const exporter = new InMemorySpanExporter();
const sdk = new NodeSDK({ serviceName: 'tracing-test', spanProcessors: [new SimpleSpanProcessor({ exporter })], instrumentations: [] });
beforeAll(() => sdk.start());
afterAll(() => sdk.shutdown());

/** One trace crosses the bus: the service's span continues the caller's, through message headers. */
describe.each(TRANSPORTS)('trace context over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;

  beforeAll(async () => {
    exporter.reset();
    environment = await createTestEnvironment('tracing', transport);
    stack = await bootEmbedded(environment.env, { extraServices: [probeService], extraGatewayModules: [ProbeGatewayModule] });
  });

  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
  });

  it('makes the service span a child of the caller span, in the same trace', async () => {
    const res = await fetch(`${stack.url}/api/v1/probe/echo?text=traced`);
    expect(res.status).toBe(200);
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'rpc probe.echo.run');
    const client = spans.find((s) => s.kind === 2 /* CLIENT */);
    const server = spans.find((s) => s.kind === 1 /* SERVER */);
    expect(client).toBeDefined();
    expect(server).toBeDefined();
    expect(server!.spanContext().traceId).toBe(client!.spanContext().traceId);
    expect(server!.parentSpanContext?.spanId).toBe(client!.spanContext().spanId);
  });
});
