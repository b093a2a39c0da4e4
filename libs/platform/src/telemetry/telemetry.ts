/**
 * OpenTelemetry bootstrap. It must run before Nest, pg and http are loaded so their
 * instrumentations can patch them. Exporting only happens when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; otherwise the API stays a no-op and costs nothing.
 */
export interface TelemetryHandle {
  enabled: boolean;
  shutdown(): Promise<void>;
}

export async function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<TelemetryHandle> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return { enabled: false, shutdown: async () => undefined };
  const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => req.url === '/healthz' || req.url === '/readyz' }),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
