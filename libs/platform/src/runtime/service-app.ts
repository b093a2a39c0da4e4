import { Controller, Module, type DynamicModule, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { healthContract, schemaOf, type HealthReport } from '@app/contracts';
import { DataSource } from 'typeorm';
import { parseConfig } from '../config/config';
import { createServiceDataSource, migrate } from '../database/data-source';
import { CreateOutbox1765600000000 } from '../database/outbox';
import { Outbox } from '../database/outbox-service';
import {
  CreateForgottenUsers1763700000002,
  CreateLivingUserFunction1795451730725,
  CreateProcessedEvents1763700000000,
  IndexProcessedEventsByAge1795674400000,
} from '../database/processed-events';
import { AppLogger } from '../logging/logger';
import { platformMetrics } from '../telemetry/metrics';
import { BusServer } from '../transport/bus-server';
import { RpcHandler } from '../transport/decorators';
import { EventPublisher } from '../transport/event-publisher';
import { Throttler } from '../throttler/throttler';
import { RpcClient } from '../transport/rpc-client';
import { BUS, HealthService, SERVICE_NAME } from './health.service';
import { drainService, ServiceLifecycle, type DrainOutcome } from './lifecycle';
import { PassThroughRpcFilter } from './pass-through.filter';
import { ProcessedEventsPruner } from './processed-events-pruner';
import type { Runtime } from './runtime';
import type { ServiceDefinition } from './service-definition';
import type { ShutdownPlan } from './shutdown';
import { KEY_VALUE_STORE, RUNTIME_ENV, SERVICE_CONFIG } from './tokens';
import { userDataController } from './user-data';

/** A running service inside this process. */
export interface ServiceApp {
  name: string;
  app: INestMicroservice;
  dataSource: DataSource;
  /** Its outbox (`outbox.lag()` is the outbox lag metric). */
  outbox: Outbox;
  lifecycle: ServiceLifecycle;
  health(): Promise<HealthReport>;
  /** Stops taking requests and finishes (or, past the plan's deadlines, ends) those in flight. */
  drain(plan: ShutdownPlan): Promise<DrainOutcome>;
  close(): Promise<void>;
}

/** The platform's migrations (applied before the service's own, in every schema). */
export const PLATFORM_MIGRATIONS = [
  CreateProcessedEvents1763700000000,
  CreateForgottenUsers1763700000002,
  CreateOutbox1765600000000,
  CreateLivingUserFunction1795451730725,
  IndexProcessedEventsByAge1795674400000,
];

export function dataSourceFor(definition: ServiceDefinition, runtime: Pick<Runtime, 'env' | 'databaseUrl'>): DataSource {
  return createServiceDataSource({
    url: runtime.databaseUrl,
    schema: schemaOf(definition.name),
    entities: definition.entities,
    migrations: [...PLATFORM_MIGRATIONS, ...definition.migrations],
    poolMax: runtime.env.DB_POOL_MAX,
    connectTimeoutMs: runtime.env.DB_POOL_CONNECT_TIMEOUT_MS,
    applicationName: `assistant-${definition.name}`,
  });
}

/** Applies a service's pending migrations; returns their names. */
export async function migrateService(definition: ServiceDefinition, runtime: Pick<Runtime, 'env' | 'databaseUrl'>): Promise<string[]> {
  const dataSource = dataSourceFor(definition, runtime);
  await dataSource.initialize();
  try {
    return await migrate(dataSource, schemaOf(definition.name));
  } finally {
    await dataSource.destroy();
  }
}

function healthController(definition: ServiceDefinition) {
  @Controller()
  class HealthHandlers {
    constructor(private readonly health: HealthService) {}

    @RpcHandler(healthContract(definition.name))
    check() {
      return this.health.report();
    }
  }
  return HealthHandlers;
}

function rootModule(
  definition: ServiceDefinition,
  runtime: Runtime,
  dataSource: DataSource,
  logger: AppLogger,
  lifecycle: ServiceLifecycle,
  outbox: Outbox,
): DynamicModule {
  const config = definition.config ? parseConfig(`the ${definition.name} service`, definition.config, runtime.rawEnv) : {};
  @Module({})
  class ServiceRootModule {}
  return {
    module: ServiceRootModule,
    global: true,
    imports: [definition.module],
    controllers: [healthController(definition), userDataController(definition)],
    providers: [
      { provide: SERVICE_NAME, useValue: definition.name },
      { provide: BUS, useValue: runtime.bus },
      { provide: RUNTIME_ENV, useValue: runtime.env },
      { provide: SERVICE_CONFIG, useValue: config },
      { provide: KEY_VALUE_STORE, useValue: runtime.kv },
      { provide: DataSource, useValue: dataSource },
      { provide: AppLogger, useValue: logger },
      { provide: RpcClient, useValue: RpcClient.forRuntime(runtime) },
      { provide: EventPublisher, useValue: new EventPublisher(runtime.bus) },
      { provide: Outbox, useValue: outbox },
      { provide: ServiceLifecycle, useValue: lifecycle },
      HealthService,
      ProcessedEventsPruner,
      Throttler,
    ],
    exports: [
      SERVICE_NAME,
      BUS,
      RUNTIME_ENV,
      SERVICE_CONFIG,
      KEY_VALUE_STORE,
      DataSource,
      AppLogger,
      RpcClient,
      EventPublisher,
      Outbox,
      ServiceLifecycle,
      HealthService,
      Throttler,
    ],
  };
}

/**
 * Boots one service on the runtime's bus: its own Nest application context, its own database
 * pool confined to its schema, its handlers served on its subjects, the relay of its outbox
 * (started once it serves, stopped after its application has closed).
 */
export async function startServiceApp(definition: ServiceDefinition, runtime: Runtime, options: { migrate: boolean }): Promise<ServiceApp> {
  const logger = runtime.logger.child(definition.name);
  const dataSource = dataSourceFor(definition, runtime);
  await dataSource.initialize();
  try {
    if (options.migrate) {
      const applied = await migrate(dataSource, schemaOf(definition.name));
      if (applied.length) logger.log(`Applied migrations: ${applied.join(', ')}`, 'Migrations');
    }
    const lifecycle = new ServiceLifecycle();
    const outbox = new Outbox(dataSource, runtime.bus, logger);
    const server = new BusServer(runtime.bus, { service: definition.name, streamHeartbeatMs: runtime.env.STREAM_HEARTBEAT_MS }, logger);
    const app = await NestFactory.createMicroservice(rootModule(definition, runtime, dataSource, logger, lifecycle, outbox), {
      strategy: server,
      logger,
    });
    app.useGlobalFilters(new PassThroughRpcFilter());
    await app.listen();
    outbox.start();
    const stopWatchingOutbox = platformMetrics.watchOutbox(definition.name, () => outbox.lag());
    return {
      name: definition.name,
      app,
      dataSource,
      outbox,
      lifecycle,
      health: () => app.get(HealthService).report(),
      drain: (plan) => drainService(definition.name, server, lifecycle, plan, logger),
      close: async () => {
        stopWatchingOutbox();
        await app.close();
        await outbox.stop();
        await dataSource.destroy();
      },
    };
  } catch (error) {
    await dataSource.destroy().catch(() => undefined);
    throw error;
  }
}
