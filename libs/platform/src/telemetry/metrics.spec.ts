import { createServer } from 'node:net';
import { METRIC_LABELS, METRIC_NAMES, PlatformMetrics } from './metrics';
import { startMetricsServer, type MetricsServer } from './metrics-server';

/** The sample lines of one metric (`name{labels} value`), comments left out. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

function labelsOf(line: string): Record<string, string> {
  const inside = /\{(.*)\}/.exec(line)?.[1] ?? '';
  return Object.fromEntries([...inside.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
}

function valueOf(line: string): number {
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('the process metrics (OpenTelemetry SDK, Prometheus exporter)', () => {
  let metrics: PlatformMetrics;
  let server: MetricsServer | undefined;
  const scrape = async () => {
    const res = await fetch(server!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    return res.text();
  };

  beforeEach(async () => {
    metrics = new PlatformMetrics();
    server = await startMetricsServer({ serviceName: 'assistant-test', port: 0, host: '127.0.0.1', metrics });
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('renders the HTTP histogram with its three labels, the route as its pattern, seconds as buckets', async () => {
    metrics.recordHttp('GET', '/api/v1/chats/:chat_id', 200, 0.012);
    metrics.recordHttp('GET', '/api/v1/chats/:chat_id', 200, 0.3);
    metrics.recordHttp('POST', '/api/v1/chats/', 503, 0.002);
    const text = await scrape();
    expect(text).toContain(`# TYPE ${METRIC_NAMES.httpServerDuration} histogram`);
    const counts = samples(text, `${METRIC_NAMES.httpServerDuration}_count`);
    expect(counts.map(labelsOf)).toEqual(
      expect.arrayContaining([
        { http_request_method: 'GET', http_route: '/api/v1/chats/:chat_id', http_response_status_code: '200' },
        { http_request_method: 'POST', http_route: '/api/v1/chats/', http_response_status_code: '503' },
      ]),
    );
    const get = counts.find((line) => labelsOf(line).http_request_method === 'GET')!;
    expect(valueOf(get)).toBe(2);
    const buckets = samples(text, `${METRIC_NAMES.httpServerDuration}_bucket`).filter(
      (line) => labelsOf(line).http_request_method === 'GET',
    );
    const bucket = (le: string) => valueOf(buckets.find((line) => labelsOf(line).le === le)!);
    expect(bucket('0.01')).toBe(0);
    expect(bucket('0.025')).toBe(1);
    expect(bucket('0.5')).toBe(2);
    expect(bucket('+Inf')).toBe(2);
  });

  it('leaves http_route out when no route matched (never the raw URL)', async () => {
    metrics.recordHttp('GET', undefined, 404, 0.001);
    const [line] = samples(await scrape(), `${METRIC_NAMES.httpServerDuration}_count`);
    expect(labelsOf(line)).toEqual({ http_request_method: 'GET', http_response_status_code: '404' });
  });

  it('renders the bus RPC histogram per subject and outcome', async () => {
    metrics.recordRpc('chat.conversation.list', 'ok', 0.004);
    metrics.recordRpc('chat.conversation.list', 'timeout', 10);
    metrics.recordRpc('memory.search', 'no_responders', 0.001);
    metrics.recordRpc('auth.session.status', 'error', 0.002);
    const text = await scrape();
    expect(text).toContain(`# TYPE ${METRIC_NAMES.busRpcDuration} histogram`);
    const labels = samples(text, `${METRIC_NAMES.busRpcDuration}_count`).map(labelsOf);
    expect(labels).toEqual(
      expect.arrayContaining([
        { rpc_subject: 'chat.conversation.list', outcome: 'ok' },
        { rpc_subject: 'chat.conversation.list', outcome: 'timeout' },
        { rpc_subject: 'memory.search', outcome: 'no_responders' },
        { rpc_subject: 'auth.session.status', outcome: 'error' },
      ]),
    );
    expect(labels).toHaveLength(4);
    expect(samples(text, `${METRIC_NAMES.busRpcDuration}_bucket`).some((line) => labelsOf(line).le === '2')).toBe(true);
  });

  it('reports the active reply streams only in a process that writes replies, never below 0', async () => {
    expect(samples(await scrape(), METRIC_NAMES.activeReplyStreams)).toEqual([]);
    metrics.hostReplyStreams();
    metrics.replyStreamStarted();
    metrics.replyStreamStarted();
    metrics.replyStreamEnded();
    let text = await scrape();
    expect(text).toContain(`# TYPE ${METRIC_NAMES.activeReplyStreams} gauge`);
    expect(samples(text, METRIC_NAMES.activeReplyStreams).map(valueOf)).toEqual([1]);
    metrics.replyStreamEnded();
    metrics.replyStreamEnded();
    text = await scrape();
    expect(samples(text, METRIC_NAMES.activeReplyStreams).map(valueOf)).toEqual([0]);
  });

  it('reads each outbox at scrape time (seconds, 0 when empty), and leaves out one whose database does not answer', async () => {
    metrics.watchOutbox('chat', async () => ({ pending: 3, oldestPendingMs: 2_500 }));
    metrics.watchOutbox('memory', async () => ({ pending: 0, oldestPendingMs: 0 }));
    const stopAuth = metrics.watchOutbox('auth', async () => {
      throw new Error('connection refused');
    });
    let text = await scrape();
    expect(text).toContain(`# TYPE ${METRIC_NAMES.outboxLag} gauge`);
    const lag = Object.fromEntries(
      samples(text, METRIC_NAMES.outboxLag).map((line) => [labelsOf(line)[METRIC_LABELS.service], valueOf(line)]),
    );
    expect(lag).toEqual({ chat: 2.5, memory: 0 });
    const pending = Object.fromEntries(
      samples(text, METRIC_NAMES.outboxPending).map((line) => [labelsOf(line)[METRIC_LABELS.service], valueOf(line)]),
    );
    expect(pending).toEqual({ chat: 3, memory: 0 });
    stopAuth();
    const stopChat = metrics.watchOutbox('files', async () => ({ pending: 1, oldestPendingMs: 1_000 }));
    stopChat();
    text = await scrape();
    expect(
      samples(text, METRIC_NAMES.outboxLag)
        .map((line) => labelsOf(line)[METRIC_LABELS.service])
        .sort(),
    ).toEqual(['chat', 'memory']);
  });

  it('serves the process metrics and the service name, and nothing but /metrics', async () => {
    const text = await scrape();
    expect(samples(text, 'process_cpu_seconds_total')).toHaveLength(1);
    expect(valueOf(samples(text, 'process_resident_memory_bytes')[0])).toBeGreaterThan(0);
    expect(valueOf(samples(text, 'nodejs_heap_size_used_bytes')[0])).toBeGreaterThan(0);
    expect(text).toMatch(/^target_info\{.*service_name="assistant-test"/m);
    const base = server!.url.replace(/\/metrics$/, '');
    expect((await fetch(`${base}/other`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${base}/metrics?x=1`)).status).toBe(200);
  });

  it('records nothing, and costs a check, until an endpoint is bound and after it is closed', async () => {
    const unbound = new PlatformMetrics();
    expect(unbound.enabled).toBe(false);
    unbound.recordHttp('GET', '/x', 200, 1);
    unbound.recordRpc('a.b', 'ok', 1);
    expect(metrics.enabled).toBe(true);
    await server!.close();
    server = undefined;
    expect(metrics.enabled).toBe(false);
    metrics.recordRpc('a.b', 'ok', 1);
  });

  it('says which port is in use instead of starting without metrics', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const other = new PlatformMetrics();
    try {
      await expect(startMetricsServer({ serviceName: 'x', port, host: '127.0.0.1', metrics: other })).rejects.toThrow(
        new RegExp(`Cannot serve metrics on port ${port} \\(METRICS_PORT\\): .*EADDRINUSE`),
      );
      expect(other.enabled).toBe(false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
