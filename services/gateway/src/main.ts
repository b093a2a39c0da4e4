import { telemetry } from './instrument';
import {
  createBus,
  createKeyValueStore,
  createLogger,
  exitOnSignals,
  parseConfigOrExit,
  runtimeEnvSchema,
} from '@app/platform';
import { createGateway, gatewayEnvSchema } from './index';

async function main(): Promise<void> {
  const env = parseConfigOrExit('the gateway', runtimeEnvSchema);
  const config = parseConfigOrExit('the gateway', gatewayEnvSchema);
  const logger = createLogger(env, 'gateway');
  if (!env.NATS_URL) {
    process.stderr.write('The gateway on its own needs NATS_URL. To run everything in one process, use `npm start`.\n');
    process.exit(78);
  }
  const bus = await createBus(env, 'assistant-gateway');
  const kv = await createKeyValueStore(env);
  const gateway = await createGateway({ env, rawEnv: process.env, bus, kv, databaseUrl: '', logger }, config);
  logger.log(`Gateway listening on ${gateway.url()}`, 'Boot');
  exitOnSignals(async () => {
    await gateway.close();
    await bus.drain();
    await kv.close();
    await telemetry.shutdown();
  }, logger);
}

void main();
