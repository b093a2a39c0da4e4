import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * Where a trace context travels: string headers. The bus's message headers have this shape, so the
 * transport passes its headers here as they are; telemetry needs no import from the transport.
 */
export type TraceCarrier = Record<string, string>;

const tracer = () => trace.getTracer('assistant-bus');

/** Writes the current trace context (`traceparent`, `tracestate`), or the one given, into bus headers. */
export function injectTraceContext<T extends TraceCarrier>(headers: T, from: Context = context.active()): T {
  propagation.inject(from, headers);
  return headers;
}

/** A span that outlives one async call (a stream read chunk by chunk): its context, for the headers, and its end. */
export interface OpenSpan {
  context: Context;
  end(error?: unknown): void;
}

/** Starts a client span under the current context; the caller ends it (with the error, when there is one). */
export function startClientSpan(name: string, attributes: Record<string, string | number | boolean>): OpenSpan {
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }, context.active());
  return {
    context: trace.setSpan(context.active(), span),
    end: (error?: unknown) => {
      if (error !== undefined)
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.end();
    },
  };
}

const SPAN_KINDS = { client: SpanKind.CLIENT, server: SpanKind.SERVER, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER };

/**
 * Runs `fn` inside a span, optionally continuing the trace found in bus headers. When nothing traces
 * (no SDK registered: the span records nothing and belongs to no trace, so there is nothing to
 * propagate either), `fn` runs as it is, without a context made for a span that does not exist:
 * on every call of every RPC, on both sides, that context was a tenth of the hop's cost.
 */
export async function withSpan<T>(
  name: string,
  kind: 'client' | 'server' | 'producer' | 'consumer',
  attributes: Record<string, string | number | boolean>,
  fn: (span: Span) => Promise<T>,
  carrier?: TraceCarrier,
): Promise<T> {
  // A receiver continues only what the headers carry, even in-process, exactly as over a socket.
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : context.active();
  const span = tracer().startSpan(name, { kind: SPAN_KINDS[kind], attributes }, parent);
  if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return fn(span);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * Names the HTTP server span in progress (the HTTP instrumentation's, named by method alone) after
 * the route that answers it, `GET /api/v1/chats/:chat_id`, with `http.route`: traces group by
 * route, never by a URL holding ids. Nothing happens when tracing is off.
 */
export function nameHttpServerSpan(method: string, route: string | undefined): void {
  if (!route) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}
