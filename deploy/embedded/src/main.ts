import { telemetry } from './instrument';
import { ConfigError, exitOnSignals } from '@app/platform';
import { bootEmbedded } from './embedded';

async function main(): Promise<void> {
  const started = performance.now();
  const stack = await bootEmbedded(process.env);
  const parts = [
    stack.database === 'embedded' ? 'embedded PostgreSQL' : 'PostgreSQL',
    stack.runtime.bus.kind === 'nats' ? 'NATS' : 'in-process bus',
    stack.runtime.kv.kind === 'redis' ? 'Redis' : 'in-memory cache',
  ];
  stack.logger.log(`Ready in ${((performance.now() - started) / 1000).toFixed(1)} s (${parts.join(', ')})`, 'Boot');
  process.stdout.write(`\n  Assistant is ready: ${stack.url}\n\n`);
  exitOnSignals(async () => {
    await stack.close();
    await telemetry.shutdown();
  }, stack.logger);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nSee .env.example for every variable.\n`);
    process.exit(78);
  }
  process.stderr.write(`The assistant could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
