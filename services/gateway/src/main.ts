import { telemetry } from './instrument';
import { createLogger, parseConfigOrExit, runtimeEnvSchema, serveProcess } from '@app/platform';
import { drainGateway } from './health/lifecycle';
import { createGateway, gatewayEnvSchema } from './index';

async function main(): Promise<void> {
  const env = parseConfigOrExit('the gateway', runtimeEnvSchema);
  const config = parseConfigOrExit('the gateway', gatewayEnvSchema);
  const logger = createLogger(env, 'gateway');
  if (!env.NATS_URL) {
    process.stderr.write('The gateway on its own needs NATS_URL. To run everything in one process, use `npm start`.\n');
    process.exit(78);
  }
  await serveProcess('assistant-gateway', { env, logger, telemetry }, async (shared) => {
    const gateway = await createGateway({ ...shared, databaseUrl: '' }, config);
    return {
      serving: `Gateway listening on ${gateway.url()}`,
      // Not ready first, then no new connections; requests and reply streams in flight finish.
      drain: (plan) => drainGateway(gateway.app, plan, logger),
    };
  });
}

void main();
