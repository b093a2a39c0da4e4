import { createLogger, migrateService, parseConfigOrExit, runtimeEnvSchema, startEmbeddedPostgres } from '@app/platform';
import { SERVICES } from './services';

/** `npm run migrate`: applies every service's pending migrations (to DATABASE_URL, or the embedded PostgreSQL). */
async function main(): Promise<void> {
  const env = parseConfigOrExit('migrations', runtimeEnvSchema);
  const logger = createLogger(env, 'migrate');
  const pg = env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: env.DATA_DIR, log: (l) => logger.log(l) });
  try {
    for (const service of SERVICES) {
      const applied = await migrateService(service, { env, databaseUrl: env.DATABASE_URL ?? pg!.url });
      logger.log(`${service.name}: ${applied.length ? applied.join(', ') : 'up to date'}`, 'Migrations');
    }
  } finally {
    await pg?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Migrations failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
