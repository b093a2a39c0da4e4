/**
 * OpenTelemetry bootstrap. It must run before Nest, pg and http are loaded so that their
 * instrumentations can patch them: each `main.ts` imports its `instrument.ts` first. Exporting
 * only happens when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing is loaded and the API
 * stays a no-op.
 */
export interface TelemetryHandle {
  enabled: boolean;
  shutdown(): Promise<void>;
}

/**
 * Query parameters whose values never go into a span (`url.query` of incoming requests, the URL of
 * outgoing ones): the phone sign-in callback's code and number, file links' signatures, sign-in
 * states and tokens, plus the instrumentation's own defaults (cloud storage signatures).
 */
export const QUERY_PARAMS_TO_REDACT = [
  'code',
  'phone_number',
  'signature',
  'expires',
  'login_state',
  'state',
  'token',
  'id_token',
  'access_token',
  'to',
  'sig',
  'Signature',
  'AWSAccessKeyId',
  'X-Goog-Signature',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
];

/** How incoming and outgoing HTTP calls become spans: no probes, no secret from a query string. */
export function httpInstrumentationConfig() {
  return {
    ignoreIncomingRequestHook: (req: { url?: string }) => req.url === '/healthz' || req.url === '/readyz',
    redactedQueryParamsServer: QUERY_PARAMS_TO_REDACT,
    redactedQueryParams: QUERY_PARAMS_TO_REDACT,
  } satisfies import('@opentelemetry/instrumentation-http').HttpInstrumentationConfig;
}

export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): TelemetryHandle {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return { enabled: false, shutdown: async () => undefined };
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on, and before anything it patches */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [new HttpInstrumentation(httpInstrumentationConfig()), new PgInstrumentation()],
  });
  sdk.start();
  return {
    enabled: true,
    // Flushing to a collector that is gone must not turn a clean stop (or a migration) into a failure.
    shutdown: () =>
      sdk.shutdown().catch((error: unknown) => {
        process.stderr.write(`Could not flush traces: ${error instanceof Error ? error.message : String(error)}\n`);
      }),
  };
}
