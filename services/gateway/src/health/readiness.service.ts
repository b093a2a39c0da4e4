import { Inject, Injectable } from '@nestjs/common';
import { healthContract, SERVICE_NAMES, systemCaller, type CheckResult } from '@app/contracts';
import type { ReadinessResponse } from '@app/contracts/gateway';
import { BUS, KEY_VALUE_STORE, RpcClient, runHealthChecks, type Bus, type KeyValueStore } from '@app/platform';
import { GATEWAY_CONFIG } from '../tokens';
import type { GatewayConfig } from '../config';

/** The gateway is ready when the bus, the cache and every service (with its own dependencies) answer. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * `all` (the default): the gateway can serve everything. `gateway`: the gateway itself can serve
   * (bus and cache), for an orchestrator's readiness probe, so that one service being down does not
   * take every gateway replica out of rotation (the failing calls answer 503 on their own).
   */
  async check(requestId: string, scope: 'all' | 'gateway' = 'all'): Promise<ReadinessResponse> {
    const timeoutMs = this.config.READINESS_TIMEOUT_MS;
    const report = await runHealthChecks('gateway', [
      { name: 'bus', check: () => this.bus.ping() },
      { name: 'cache', check: () => this.kv.ping() },
      ...(scope === 'gateway' ? [] : SERVICE_NAMES).map((service) => ({
        name: service,
        check: async () => {
          const answer = await this.rpc.call(healthContract(service), {}, systemCaller(requestId), { timeoutMs });
          if (answer.status !== 'ready') {
            const down = Object.entries(answer.checks)
              .filter(([, c]: [string, CheckResult]) => c.status === 'down')
              .map(([name, c]) => `${name}: ${c.detail ?? 'down'}`);
            throw new Error(down.join('; ') || 'not ready');
          }
        },
      })),
    ]);
    return { status: report.status, checks: report.checks };
  }
}
