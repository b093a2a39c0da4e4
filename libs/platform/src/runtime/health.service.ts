import { Inject, Injectable } from '@nestjs/common';
import type { HealthReport } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { KeyValueStore } from '../cache/key-value-store';
import { runHealthChecks, type HealthIndicator } from '../health/health';
import type { Bus } from '../transport/bus';
import { ServiceLifecycle } from './lifecycle';
import { KEY_VALUE_STORE } from './tokens';

export const SERVICE_NAME = Symbol('SERVICE_NAME');
export const BUS = Symbol('BUS');

/** Readiness of one service: its database, the bus and the cache; never ready once it is shutting down. */
@Injectable()
export class HealthService {
  private readonly indicators: HealthIndicator[];

  constructor(
    @Inject(SERVICE_NAME) private readonly service: string,
    dataSource: DataSource,
    @Inject(BUS) bus: Bus,
    @Inject(KEY_VALUE_STORE) kv: KeyValueStore,
    private readonly lifecycle: ServiceLifecycle,
  ) {
    this.indicators = [
      { name: 'database', check: async () => void (await dataSource.query('SELECT 1')) },
      { name: 'bus', check: () => bus.ping() },
      { name: 'cache', check: () => kv.ping() },
    ];
  }

  async report(): Promise<HealthReport> {
    if (this.lifecycle.isStopping) {
      return {
        service: this.service,
        status: 'not_ready',
        checks: { lifecycle: { status: 'down', latency_ms: 0, detail: 'shutting down' } },
      };
    }
    return runHealthChecks(this.service, this.indicators);
  }
}
