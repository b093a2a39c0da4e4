import { Inject, Injectable } from '@nestjs/common';
import { healthContract, SERVICE_NAMES, systemCaller, type CheckResult, type HealthReport } from '@app/contracts';
import type { ReadinessResponse } from '@app/contracts/gateway';
import { BUS, KEY_VALUE_STORE, RpcClient, runHealthChecks, type Bus, type KeyValueStore } from '@app/platform';
import { GATEWAY_CONFIG } from '../tokens';
import type { GatewayConfig } from '../config';
import { GatewayLifecycle } from './lifecycle';

/** Dependencies a service reports on (beside its own answer), summed up across the services. */
const SHARED_DEPENDENCIES = ['database'] as const;

/** The gateway is ready when the bus, the cache and every service (with its own dependencies) answer. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly lifecycle: GatewayLifecycle,
  ) {}

  /**
   * `all` (the default): the gateway can serve everything; every dependency is listed with its
   * state (bus, cache, each service, and the database as the services see it). `gateway`: the
   * gateway itself can serve (bus and cache), for an orchestrator's readiness probe, so that one
   * service being down does not take every gateway replica out of rotation (the failing calls
   * answer 503 on their own). A gateway that is shutting down is never ready.
   */
  async check(requestId: string, scope: 'all' | 'gateway' = 'all'): Promise<ReadinessResponse> {
    if (this.lifecycle.isDraining) {
      return { status: 'not_ready', checks: { gateway: { status: 'down', latency_ms: 0, detail: 'shutting down' } } };
    }
    const timeoutMs = this.config.READINESS_TIMEOUT_MS;
    const reports = new Map<string, HealthReport>();
    const report = await runHealthChecks('gateway', [
      { name: 'bus', check: () => this.bus.ping() },
      { name: 'cache', check: () => this.kv.ping() },
      ...(scope === 'gateway' ? [] : SERVICE_NAMES).map((service) => ({
        name: service,
        check: async () => {
          const answer = await this.rpc.call(healthContract(service), {}, systemCaller(requestId), { timeoutMs });
          reports.set(service, answer);
          if (answer.status !== 'ready') {
            const down = Object.entries(answer.checks)
              .filter(([, c]: [string, CheckResult]) => c.status === 'down')
              .map(([name, c]) => `${name}: ${c.detail ?? 'down'}`);
            throw new Error(down.join('; ') || 'not ready');
          }
        },
      })),
    ]);
    const checks: Record<string, CheckResult> = { ...report.checks };
    for (const dependency of scope === 'gateway' ? [] : SHARED_DEPENDENCIES) {
      const seen = [...reports.entries()].filter(([, r]) => r.checks[dependency]);
      if (!seen.length) continue;
      const down = seen.filter(([, r]) => r.checks[dependency].status === 'down');
      checks[dependency] = down.length
        ? {
            status: 'down',
            latency_ms: Math.max(...down.map(([, r]) => r.checks[dependency].latency_ms)),
            detail: `${down.map(([s]) => s).join(', ')}: ${down[0][1].checks[dependency].detail ?? 'down'}`,
          }
        : { status: 'up', latency_ms: Math.max(...seen.map(([, r]) => r.checks[dependency].latency_ms)) };
    }
    return { status: report.status, checks };
  }
}
