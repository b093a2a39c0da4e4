import type { Attributes, BatchObservableResult, Counter, Histogram, Meter, Observable } from '@opentelemetry/api';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { OutboxLag } from '../database/outbox';

/**
 * The names Prometheus sees (the exporter writes them as they are; only counters gain `_total`).
 * The alerts, the chat autoscaler and prometheus-adapter in k8s/components/monitoring read them:
 * a test (e2e/deploy) keeps those files and these names in step.
 */
export const METRIC_NAMES = {
  /** Gateway: every HTTP request but the probes (histogram, seconds). */
  httpServerDuration: 'http_server_request_duration_seconds',
  /** Every caller of a bus request/reply, streams' opening call included (histogram, seconds). */
  busRpcDuration: 'assistant_bus_rpc_duration_seconds',
  /** Chat: replies being written by this process now (gauge). */
  activeReplyStreams: 'assistant_active_reply_streams',
  /** Each service's outbox: age of the oldest event not yet relayed, 0 when none (gauge, seconds). */
  outboxLag: 'assistant_outbox_lag_seconds',
  /** Each service's outbox: events not yet relayed (gauge). */
  outboxPending: 'assistant_outbox_pending_events',
  /**
   * Every consumer of events: an event that reached it again after it was applied, and was caught by
   * the processed-event table (counter; `consumer`). A burst after a NATS restart is a consumer that
   * lost its acknowledged floor (see e2e/faults/nats-kill-redelivery).
   */
  eventsRedelivered: 'assistant_events_redelivered',
  /** SMS: texts the operator's ceiling kept from going out (counter; `reason` minute_ceiling: delayed, day_ceiling: held). */
  smsTextsHeld: 'assistant_sms_texts_held',
} as const;

/** Label names, as Prometheus sees them. */
export const METRIC_LABELS = {
  httpMethod: 'http_request_method',
  /** The route's pattern (`/api/v1/chats/:chat_id`), never the URL; absent when no route matched. */
  httpRoute: 'http_route',
  httpStatus: 'http_response_status_code',
  rpcSubject: 'rpc_subject',
  rpcOutcome: 'outcome',
  /** Which service an outbox belongs to (not `service`: Prometheus' target labels have one). */
  service: 'assistant_service',
  /** Why a text was held (minute_ceiling, day_ceiling). */
  reason: 'reason',
  /** Which consumer of events (a service's durable handler, as named in its processed-event table). */
  consumer: 'consumer',
} as const;

/** How a bus request/reply ended: answered (ok or with an error), or not at all. */
export type RpcOutcome = 'ok' | 'error' | 'timeout' | 'no_responders';

/** Seconds; the semantic conventions' HTTP buckets (5 ms to 10 s). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Seconds; finer at the bottom (a bus hop is about a millisecond) and 2 s, the latency alert's line. */
const RPC_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
/** An outbox's lag is read from its database at each scrape; one that does not answer is left out. */
const OUTBOX_READ_TIMEOUT_MS = 2_000;

interface OutboxSource {
  attributes: Attributes;
  lag(): Promise<OutboxLag>;
}

const UNMATCHED_ROUTE = '';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The process's metrics. Instruments are made once, when a metrics endpoint binds a meter
 * (`startMetricsServer`); until then, and in a process without one, recording is a single check.
 * Each set of labels is made once and reused, so recording allocates nothing of its own.
 */
export class PlatformMetrics {
  private httpDuration?: Histogram;
  private rpcDuration?: Histogram;
  private smsHeld?: Counter;
  private eventsRedelivered?: Counter;
  private binding?: object;
  private activeReplyStreams = 0;
  private hostsReplyStreams = false;
  private readonly outboxes = new Set<OutboxSource>();
  private readonly httpLabels = new Map<string, Map<string, Map<number, Attributes>>>();
  private readonly rpcLabels = new Map<string, Record<RpcOutcome, Attributes>>();

  /** Whether a metrics endpoint is bound (recording does something). */
  get enabled(): boolean {
    return this.binding !== undefined;
  }

  /** One HTTP request answered by the gateway; `route` is the matched pattern (undefined when none). */
  recordHttp(method: string, route: string | undefined, status: number, seconds: number): void {
    const histogram = this.httpDuration;
    if (histogram) histogram.record(seconds, this.httpLabelsOf(method, route ?? UNMATCHED_ROUTE, status));
  }

  /** One request/reply over the bus, from the caller's side. */
  recordRpc(subject: string, outcome: RpcOutcome, seconds: number): void {
    const histogram = this.rpcDuration;
    if (histogram) histogram.record(seconds, this.rpcLabelsOf(subject)[outcome]);
  }

  /** A text the operator's ceiling kept from going out (SMS_TEXTS_PER_MINUTE: delayed; SMS_TEXTS_PER_DAY: held). */
  recordSmsHeld(reason: 'minute_ceiling' | 'day_ceiling'): void {
    this.smsHeld?.add(1, { [METRIC_LABELS.reason]: reason });
  }

  /** An event that came again to `consumer` after it was applied (the processed-event table caught it). */
  recordEventRedelivered(consumer: string): void {
    this.eventsRedelivered?.add(1, { [METRIC_LABELS.consumer]: consumer });
  }

  /** This process writes replies: it reports `assistant_active_reply_streams` (0 included). */
  hostReplyStreams(): void {
    this.hostsReplyStreams = true;
  }

  replyStreamStarted(): void {
    this.activeReplyStreams++;
  }

  replyStreamEnded(): void {
    if (this.activeReplyStreams > 0) this.activeReplyStreams--;
  }

  /** Reports a service's outbox lag at each scrape, until the returned function is called. */
  watchOutbox(service: string, lag: () => Promise<OutboxLag>): () => void {
    const source: OutboxSource = { attributes: { [METRIC_LABELS.service]: service }, lag };
    this.outboxes.add(source);
    return () => void this.outboxes.delete(source);
  }

  /**
   * Makes the instruments on `meter` (once per endpoint) and starts reporting; the returned
   * function stops it (recording becomes a no-op again). The last endpoint bound wins.
   */
  bind(meter: Meter): () => void {
    const httpDuration = meter.createHistogram(METRIC_NAMES.httpServerDuration, {
      description: 'Duration of the HTTP requests the gateway answered, in seconds (probes excluded)',
      advice: { explicitBucketBoundaries: HTTP_BUCKETS },
    });
    const rpcDuration = meter.createHistogram(METRIC_NAMES.busRpcDuration, {
      description: 'Duration of request/reply calls over the bus, from the caller, in seconds',
      advice: { explicitBucketBoundaries: RPC_BUCKETS },
    });
    const streams = meter.createObservableGauge(METRIC_NAMES.activeReplyStreams, {
      description: 'Replies being written by this process now',
    });
    const observeStreams = (result: { observe(value: number): void }) => {
      if (this.hostsReplyStreams) result.observe(this.activeReplyStreams);
    };
    streams.addCallback(observeStreams);

    const outboxLag = meter.createObservableGauge(METRIC_NAMES.outboxLag, {
      description: 'Age of the oldest event of the outbox not yet relayed to the event stream, in seconds (0 when none)',
    });
    const outboxPending = meter.createObservableGauge(METRIC_NAMES.outboxPending, {
      description: 'Events of the outbox not yet relayed to the event stream',
    });
    const observeOutboxes = async (result: BatchObservableResult) => {
      await Promise.all(
        [...this.outboxes].map(async (source) => {
          try {
            const lag = await withTimeout(source.lag(), OUTBOX_READ_TIMEOUT_MS);
            result.observe(outboxLag, lag.oldestPendingMs / 1000, source.attributes);
            result.observe(outboxPending, lag.pending, source.attributes);
          } catch {
            // Its database does not answer: no value this time (the readiness probe says why).
          }
        }),
      );
    };
    meter.addBatchObservableCallback(observeOutboxes, [outboxLag, outboxPending]);

    const smsHeld = meter.createCounter(METRIC_NAMES.smsTextsHeld, {
      description: "Texts the operator's ceiling kept from going out (minute_ceiling: delayed, day_ceiling: held for good)",
    });

    const eventsRedelivered = meter.createCounter(METRIC_NAMES.eventsRedelivered, {
      description: 'Events that reached a consumer again after it had applied them (caught by its processed-event table)',
    });

    const stopProcessMetrics = observeProcess(meter);
    const binding = {};
    this.binding = binding;
    this.httpDuration = httpDuration;
    this.rpcDuration = rpcDuration;
    this.smsHeld = smsHeld;
    this.eventsRedelivered = eventsRedelivered;
    return () => {
      streams.removeCallback(observeStreams);
      meter.removeBatchObservableCallback(observeOutboxes, [outboxLag, outboxPending]);
      stopProcessMetrics();
      if (this.binding !== binding) return;
      this.binding = undefined;
      this.httpDuration = undefined;
      this.rpcDuration = undefined;
      this.smsHeld = undefined;
      this.eventsRedelivered = undefined;
    };
  }

  private httpLabelsOf(method: string, route: string, status: number): Attributes {
    let byMethod = this.httpLabels.get(route);
    if (!byMethod) this.httpLabels.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let labels = byStatus.get(status);
    if (!labels) {
      labels = { [METRIC_LABELS.httpMethod]: method, [METRIC_LABELS.httpStatus]: status };
      if (route !== UNMATCHED_ROUTE) labels[METRIC_LABELS.httpRoute] = route;
      byStatus.set(status, labels);
    }
    return labels;
  }

  private rpcLabelsOf(subject: string): Record<RpcOutcome, Attributes> {
    let labels = this.rpcLabels.get(subject);
    if (!labels) {
      const of = (outcome: RpcOutcome) => ({ [METRIC_LABELS.rpcSubject]: subject, [METRIC_LABELS.rpcOutcome]: outcome });
      labels = { ok: of('ok'), error: of('error'), timeout: of('timeout'), no_responders: of('no_responders') };
      this.rpcLabels.set(subject, labels);
    }
    return labels;
  }
}

/**
 * The usual process metrics (names as Prometheus' Node client has them), read at each scrape:
 * CPU, memory, start time and the event loop's delay (99th percentile and maximum since the last scrape).
 */
function observeProcess(meter: Meter): () => void {
  const cpu = meter.createObservableCounter('process_cpu_seconds', { description: 'User and system CPU time spent, in seconds' });
  const rss = meter.createObservableGauge('process_resident_memory_bytes', { description: 'Resident memory size, in bytes' });
  const heapUsed = meter.createObservableGauge('nodejs_heap_size_used_bytes', { description: 'V8 heap in use, in bytes' });
  const heapTotal = meter.createObservableGauge('nodejs_heap_size_total_bytes', { description: 'V8 heap allocated, in bytes' });
  const external = meter.createObservableGauge('nodejs_external_memory_bytes', {
    description: 'Memory of C++ objects bound to JavaScript objects, in bytes',
  });
  const started = meter.createObservableGauge('process_start_time_seconds', {
    description: 'Start time of the process since the Unix epoch, in seconds',
  });
  const loopP99 = meter.createObservableGauge('nodejs_eventloop_lag_p99_seconds', {
    description: 'Event loop delay, 99th percentile since the last scrape, in seconds',
  });
  const loopMax = meter.createObservableGauge('nodejs_eventloop_lag_max_seconds', {
    description: 'Event loop delay, maximum since the last scrape, in seconds',
  });
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const startSeconds = performance.timeOrigin / 1000;
  const observables: Observable[] = [cpu, rss, heapUsed, heapTotal, external, started, loopP99, loopMax];
  const observe = (result: BatchObservableResult) => {
    const usage = process.cpuUsage();
    result.observe(cpu, (usage.user + usage.system) / 1e6);
    const memory = process.memoryUsage();
    result.observe(rss, memory.rss);
    result.observe(heapUsed, memory.heapUsed);
    result.observe(heapTotal, memory.heapTotal);
    result.observe(external, memory.external);
    result.observe(started, startSeconds);
    if (loop.count > 0) {
      result.observe(loopP99, loop.percentile(99) / 1e9);
      result.observe(loopMax, loop.max / 1e9);
    }
    loop.reset();
  };
  meter.addBatchObservableCallback(observe, observables);
  return () => {
    meter.removeBatchObservableCallback(observe, observables);
    loop.disable();
  };
}

/** The metrics of this process (one per process: the embedded mode serves every part from it). */
export const platformMetrics = new PlatformMetrics();
