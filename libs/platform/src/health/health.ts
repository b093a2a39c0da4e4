import { createServer, type Server } from 'node:http';
import type { CheckResult, HealthReport } from '@app/contracts';

export interface HealthIndicator {
  name: string;
  check(): Promise<void>;
}

const CHECK_TIMEOUT_MS = 2_000;

async function timed(indicator: HealthIndicator): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      indicator.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'up', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latency_ms: Math.round(performance.now() - started),
      detail: error instanceof Error ? error.message : String(error),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every indicator in parallel, each with a time limit. */
export async function runHealthChecks(service: string, indicators: HealthIndicator[]): Promise<HealthReport> {
  const results = await Promise.all(indicators.map(async (i) => [i.name, await timed(i)] as const));
  const checks = Object.fromEntries(results);
  return { service, status: results.every(([, r]) => r.status === 'up') ? 'ready' : 'not_ready', checks };
}

/** The probe endpoints of a standalone service: `/healthz` (alive) and `/readyz` (dependencies). */
export function startHealthServer(port: number, readiness: () => Promise<HealthReport>): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { detail: 'Method not allowed' });
    if (req.url === '/healthz') return send(200, { status: 'ok' });
    if (req.url === '/readyz') {
      readiness().then(
        (report) => send(report.status === 'ready' ? 200 : 503, report),
        (error: unknown) => send(503, { detail: String(error) }),
      );
      return;
    }
    send(404, { detail: 'Not Found' });
  });
  return new Promise((resolve) => server.listen(port, () => resolve(server)));
}

/** Stops the probe server without waiting for a prober's idle keep-alive connection. */
export function closeHealthServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
