import { telemetry } from './instrument';
import { ConfigError, exitOnSignals } from '@app/platform';
import { bootEmbedded, embeddedDefaults, type BootOptions } from './embedded';

/**
 * Runs the whole product in this process until a signal stops it. `npm start` (scripts/start.mjs)
 * calls it with the web client's build still under way (`beforeGateway`); run as a program
 * (`node deploy/embedded/dist/main.js`), it starts at once.
 */
export async function main(options: Pick<BootOptions, 'beforeGateway'> = {}): Promise<void> {
  const started = performance.now();
  const stack = await bootEmbedded(embeddedDefaults(process.env), options);
  const parts = [
    stack.database === 'embedded' ? 'embedded PostgreSQL' : 'PostgreSQL',
    stack.runtime.bus.kind === 'nats' ? 'NATS' : 'in-process bus',
    stack.runtime.kv.kind === 'redis' ? 'Redis' : 'in-memory cache',
  ];
  stack.logger.log(`Ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${parts.join(', ')})`, 'Boot');
  if (stack.metricsUrl) stack.logger.log(`Prometheus metrics at ${stack.metricsUrl}`, 'Boot');
  process.stdout.write(`\n  Assistant is ready: ${stack.url}\n\n`);
  exitOnSignals(
    async (plan) => {
      await stack.close(plan);
      await telemetry.shutdown();
    },
    stack.logger,
    stack.runtime.env.SHUTDOWN_GRACE_MS,
  );
}

export function exitOnBootError(error: unknown): never {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
    process.exit(78);
  }
  process.stderr.write(`The assistant could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

if (require.main === module) main().catch(exitOnBootError);
