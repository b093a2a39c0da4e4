import { schemaOf } from '@app/contracts';
import { dataSourceFor, migrate, parseConfigOrExit, runtimeEnvSchema, type TelemetryHandle } from '@app/platform';
import { z } from 'zod';
import { insiderConfigEnvSchema } from './config';
import { UNANNOUNCED } from './flags/flags-changes';
import { FlagsService } from './flags/flags.service';
import { InsiderStatusRepository } from './flags/insider-status.repository';
import { insiderConfigService } from './index';

/** Operators' commands: who is an insider is theirs to decide, never the user's. */
export const OPERATOR_COMMANDS = ['grant-insider', 'revoke-insider'] as const;
export type OperatorCommand = (typeof OPERATOR_COMMANDS)[number];

export function isOperatorCommand(arg: string | undefined): arg is OperatorCommand {
  return (OPERATOR_COMMANDS as readonly string[]).includes(arg ?? '');
}

const USAGE = `Usage: node services/insider-config/dist/main.js grant-insider <user_id>
       node services/insider-config/dist/main.js revoke-insider <user_id>
Needs DATABASE_URL. Applies pending migrations of the insider-config schema first.
`;

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/**
 * `grant-insider <user_id>` / `revoke-insider <user_id>`: writes the user's standing straight to
 * the service's schema (no bus needed) and answers with an exit code: 0 done, 64 usage, 78
 * configuration, 1 failure.
 */
export async function runOperatorCommand(command: OperatorCommand, args: string[], telemetry: TelemetryHandle): Promise<number> {
  const userId = z.uuid().safeParse(args[0]);
  if (!userId.success || args.length !== 1) {
    process.stderr.write(`${args[0] === undefined ? 'Which user?' : `Not a user id: ${args.join(' ')}`}\n${USAGE}`);
    return 64; // EX_USAGE
  }
  const env = parseConfigOrExit('the insider-config service', runtimeEnvSchema);
  const config = parseConfigOrExit('the insider-config service', insiderConfigEnvSchema);
  if (!env.DATABASE_URL) {
    process.stderr.write(`${command} needs DATABASE_URL (the database the insider-config service uses).\n`);
    return 78; // EX_CONFIG
  }
  // Two connections: migrate() holds one for its lock while the migrations run on the other.
  const dataSource = dataSourceFor(insiderConfigService, { env: { ...env, DB_POOL_MAX: 2 }, databaseUrl: env.DATABASE_URL });
  try {
    await dataSource.initialize();
    await migrate(dataSource, schemaOf(insiderConfigService.name));
    const flags = new FlagsService(new InsiderStatusRepository(dataSource), config, UNANNOUNCED);
    const id = userId.data;
    if (command === 'grant-insider') {
      const { changed } = await flags.grant(id);
      say(changed ? `${id} is now an insider.` : `${id} was already an insider.`);
    } else {
      const { changed, allowListed } = await flags.revoke(id);
      say(changed ? `${id} is no longer an insider; insider mode is off.` : `${id} was not an insider in the database.`);
      if (allowListed) say(`${id} is still listed in INSIDER_USER_IDS, which keeps them an insider: remove them there too.`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`${command} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await telemetry.shutdown();
  }
}
