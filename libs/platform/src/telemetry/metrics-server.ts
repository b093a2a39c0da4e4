import { createServer, type Server } from 'node:http';
import { platformMetrics, type PlatformMetrics } from './metrics';

/** Where a process of the distributed mode serves `/metrics` unless METRICS_PORT says otherwise. */
export const DEFAULT_METRICS_PORT = 9464;

export interface MetricsServerOptions {
  /** `service.name` of the metrics (`target_info`). */
  serviceName: string;
  /** 0: a free port chosen by the system. */
  port: number;
  /** Every interface when unset. */
  host?: string;
  /** The process's metrics by default. */
  metrics?: PlatformMetrics;
}

/** The Prometheus endpoint of a process. */
export interface MetricsServer {
  port: number;
  /** `http://host:port/metrics`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the process's metrics in Prometheus' text format at `/metrics` on a port of its own
 * (never the gateway's public one): the OpenTelemetry metrics SDK with its Prometheus exporter as
 * the reader, the instruments bound to it. Loaded only when a process serves metrics.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when metrics are served */
  const { MeterProvider } = require('@opentelemetry/sdk-metrics') as typeof import('@opentelemetry/sdk-metrics');
  const { PrometheusExporter } = require('@opentelemetry/exporter-prometheus') as typeof import('@opentelemetry/exporter-prometheus');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const metrics = options.metrics ?? platformMetrics;
  // The exporter's own server is not started: this one reports a port in use instead of logging it.
  const exporter = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
  const provider = new MeterProvider({ resource: resourceFromAttributes({ 'service.name': options.serviceName }), readers: [exporter] });
  const unbind = metrics.bind(provider.getMeter('assistant'));
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if ((req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    exporter.getMetricsRequestHandler(req, res);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    unbind();
    await provider.shutdown().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot serve metrics on port ${options.port} (METRICS_PORT): ${reason}`);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = !options.host || options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: async () => {
      unbind();
      await closeServer(server);
      await provider.shutdown().catch(() => undefined);
    },
  };
}

/**
 * For the `main` of a process of the distributed mode: /metrics on METRICS_PORT, 9464 when unset
 * (each pod or container has its ports to itself). A port in use stops the process with a plain message.
 */
export async function serveProcessMetrics(serviceName: string, port: number | undefined): Promise<MetricsServer> {
  try {
    return await startMetricsServer({ serviceName, port: port ?? DEFAULT_METRICS_PORT });
  } catch (error) {
    process.stderr.write(
      `${error instanceof Error ? error.message : String(error)}\nSet METRICS_PORT to a free port (0: any free port).\n`,
    );
    process.exit(1);
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
