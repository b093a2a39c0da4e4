import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Headers } from '../transport/bus';

const tracer = () => trace.getTracer('assistant-bus');

/** Writes the current trace context (`traceparent`, `tracestate`) into bus headers. */
export function injectTraceContext(headers: Headers): Headers {
  propagation.inject(context.active(), headers);
  return headers;
}

/** Runs `fn` inside a span, optionally continuing the trace found in bus headers. */
export async function withSpan<T>(
  name: string,
  kind: 'client' | 'server' | 'producer' | 'consumer',
  attributes: Record<string, string | number | boolean>,
  fn: (span: Span) => Promise<T>,
  carrier?: Headers,
): Promise<T> {
  // A receiver continues only what the headers carry, even in-process, exactly as over a socket.
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : context.active();
  const spanKind = { client: SpanKind.CLIENT, server: SpanKind.SERVER, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER }[kind];
  return tracer().startActiveSpan(name, { kind: spanKind, attributes }, parent, async (span) => {
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
