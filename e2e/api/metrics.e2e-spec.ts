import { FakeOpenAI, TRANSPORTS } from '@app/testing';
import { METRIC_LABELS, METRIC_NAMES } from '@app/platform';
import { ApiClient, eventually } from '../support/api-client';
import { freePort } from '../support/processes';
import { parseSse, type SseEvent } from '../support/sse';
import { startTestStack, type TestStack } from '../support/test-stack';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of Prometheus' text format (comments left out). */
function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`Not a Prometheus sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** A reply stream read as it comes: `until` waits for an event, `rest` reads to the end. */
async function openStream(url: string, token: string, body: object) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const seen = () => parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
  return {
    async until(event: string): Promise<SseEvent[]> {
      while (!seen().some((e) => e.event === event)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`The stream ended before ${event}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
      return seen();
    },
    async rest(): Promise<SseEvent[]> {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return parseSse(text);
        text += decoder.decode(value, { stream: true });
      }
    },
  };
}

/**
 * /metrics of a booted product (METRICS_PORT set): the four metrics the Kubernetes alerts and
 * the chat autoscaler read are there, with their labels, after a few requests and a streamed reply.
 * Presence and labels only: no timing is asserted.
 */
describe.each(TRANSPORTS)('Prometheus metrics over the %s transport', (transport) => {
  let booted: TestStack;
  let port: number;
  const openai = new FakeOpenAI({ apiKey: 'sk-test-key' });
  const scrape = async () => {
    const res = await fetch(booted.stack.metricsUrl!);
    expect(res.status).toBe(200);
    return parseMetrics(await res.text());
  };
  const series = (samples: Sample[], name: string) => samples.filter((s) => s.name === name);

  beforeAll(async () => {
    await openai.start();
    port = await freePort();
    booted = await startTestStack('metrics', transport, {
      METRICS_PORT: String(port),
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: openai.baseURL,
      CHAT_MODEL: 'fast-model',
      LLM_STALL_TIMEOUT_MS: '120000',
    });
  });

  afterAll(async () => {
    await booted?.close();
    await openai.stop();
  });

  it('serves /metrics on METRICS_PORT, apart from the API', async () => {
    expect(booted.stack.metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`);
    const res = await fetch(`${booted.stack.url}/metrics`);
    expect(res.status).toBe(404);
  });

  it('measures requests by route pattern, bus calls by subject and outcome, open reply streams and the outbox lag', async () => {
    const api = new ApiClient(booted.stack.url);
    await api.guest();
    const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id as string;
    await api.get(`/api/v1/chats/${chatId}`).expect(200);
    const stranger = '00000000-0000-4000-8000-000000000000';
    await api.get(`/api/v1/chats/${stranger}`).expect(404);
    await api.get('/healthz').expect(200);

    // A reply that stays open (the model stalls after its first words) until it is stopped.
    openai.script('responses', [{ text: 'Let me think' }, { stall: true }]);
    const stream = await openStream(`${booted.stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Tell me a long story' });
    const first = await stream.until('text');
    const userMessageId = first.find((e) => e.event === 'user_message')!.data.message_id as string;

    let samples = await scrape();
    expect(series(samples, METRIC_NAMES.activeReplyStreams)).toEqual([{ name: METRIC_NAMES.activeReplyStreams, labels: {}, value: 1 }]);

    await api.post(`/api/v1/messages/${userMessageId}/stop`).expect(200);
    const events = await stream.rest();
    expect(events.map((e) => e.event)).toContain('done');
    samples = await eventually(async () => {
      const now = await scrape();
      return series(now, METRIC_NAMES.activeReplyStreams)[0]?.value === 0 ? now : undefined;
    });

    // HTTP: the three labels, the pattern of each route, never an id of the URL, no probes.
    const http = series(samples, `${METRIC_NAMES.httpServerDuration}_count`);
    for (const sample of http.filter((s) => s.labels[METRIC_LABELS.httpRoute] !== undefined)) {
      expect(Object.keys(sample.labels).sort()).toEqual(
        [METRIC_LABELS.httpMethod, METRIC_LABELS.httpRoute, METRIC_LABELS.httpStatus].sort(),
      );
    }
    const route = (method: string, pattern: string, status: number) =>
      http.find(
        (s) =>
          s.labels.http_request_method === method &&
          s.labels.http_route === pattern &&
          s.labels.http_response_status_code === String(status),
      );
    expect(route('GET', '/api/v1/chats/:chat_id', 200)).toBeDefined();
    expect(route('GET', '/api/v1/chats/:chat_id', 404)).toBeDefined();
    expect(route('POST', '/api/v1/chats/:chat_id/messages', 200)).toBeDefined();
    expect(route('POST', '/api/v1/messages/:message_id/stop', 200)).toBeDefined();
    expect(http.some((s) => JSON.stringify(s.labels).includes(chatId) || JSON.stringify(s.labels).includes(stranger))).toBe(false);
    expect(http.some((s) => /healthz|readyz/.test(s.labels.http_route ?? ''))).toBe(false);
    expect(series(samples, `${METRIC_NAMES.httpServerDuration}_bucket`).length).toBeGreaterThan(http.length);

    // The bus: each call by subject and outcome (the stream's opening call included).
    const rpc = series(samples, `${METRIC_NAMES.busRpcDuration}_count`);
    for (const sample of rpc) expect(Object.keys(sample.labels).sort()).toEqual([METRIC_LABELS.rpcOutcome, METRIC_LABELS.rpcSubject]);
    const call = (subject: string, outcome: string) => rpc.find((s) => s.labels.rpc_subject === subject && s.labels.outcome === outcome);
    expect(call('chat.conversation.create', 'ok')).toBeDefined();
    expect(call('chat.conversation.get', 'error')).toBeDefined();
    expect(rpc.some((s) => s.labels.rpc_subject.startsWith('chat.message') && s.labels.outcome === 'ok')).toBe(true);

    // Each service's outbox, 0 or more seconds behind.
    const lag = series(samples, METRIC_NAMES.outboxLag);
    expect(lag.map((s) => s.labels[METRIC_LABELS.service]).sort()).toEqual(expect.arrayContaining(['auth', 'chat', 'memory']));
    for (const sample of lag) {
      expect(Object.keys(sample.labels)).toEqual([METRIC_LABELS.service]);
      expect(sample.value).toBeGreaterThanOrEqual(0);
    }

    // The process itself.
    expect(series(samples, 'process_cpu_seconds_total')).toHaveLength(1);
    expect(series(samples, 'process_resident_memory_bytes')).toHaveLength(1);
  });
});
