import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import { nameHttpServerSpan } from '@app/platform';
import { trace } from '@opentelemetry/api';
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

  it('gives a streamed call one client span, from its request to its last frame, parent of the service span', async () => {
    const res = await fetch(`${stack.url}/api/v1/probe/stream?count=3`);
    expect(await res.json()).toEqual({ chunks: [0, 1, 2] });
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'rpc probe.stream.run');
    const clients = spans.filter((s) => s.kind === 2 /* CLIENT */);
    const server = spans.find((s) => s.kind === 1 /* SERVER */);
    expect(clients).toHaveLength(1);
    expect(server).toBeDefined();
    expect(server!.spanContext().traceId).toBe(clients[0].spanContext().traceId);
    expect(server!.parentSpanContext?.spanId).toBe(clients[0].spanContext().spanId);
    expect(clients[0].status.code).not.toBe(2 /* ERROR */);
  });

  it('marks the client span of a stream the service failed', async () => {
    exporter.reset();
    const res = await fetch(`${stack.url}/api/v1/probe/stream?count=3&fail_at=1`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const client = exporter.getFinishedSpans().find((s) => s.name === 'rpc probe.stream.run' && s.kind === 2);
    expect(client?.status.code).toBe(2 /* ERROR */);
  });
});

describe('HTTP server spans', () => {
  it('are named after the route that answers them, never after a URL with ids', () => {
    exporter.reset();
    const tracer = trace.getTracer('http-test');
    tracer.startActiveSpan('GET', (span) => {
      nameHttpServerSpan('GET', '/api/v1/chats/:chat_id');
      span.end();
    });
    tracer.startActiveSpan('GET', (span) => {
      nameHttpServerSpan('GET', undefined); // no route matched: the name stays as it was
      span.end();
    });
    const [named, unmatched] = exporter.getFinishedSpans();
    expect(named.name).toBe('GET /api/v1/chats/:chat_id');
    expect(named.attributes['http.route']).toBe('/api/v1/chats/:chat_id');
    expect(unmatched.name).toBe('GET');
    expect(unmatched.attributes['http.route']).toBeUndefined();
  });
});
