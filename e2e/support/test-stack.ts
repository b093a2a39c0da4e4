import { bootEmbedded, type BootOptions, type EmbeddedStack } from '@app/embedded';
import { createTestEnvironment, type TestEnvironment, type TransportKind } from '@app/testing';
import { Client } from 'pg';

/** The whole product booted for one suite: its own database (with a client on it), its own subjects. */
export interface TestStack {
  environment: TestEnvironment;
  stack: EmbeddedStack;
  db: Client;
  close(): Promise<void>;
}

export async function startTestStack(
  label: string,
  transport: TransportKind,
  env: NodeJS.ProcessEnv = {},
  options: BootOptions = {},
): Promise<TestStack> {
  const environment = await createTestEnvironment(label, transport);
  // The development SMS inbox is how the suites read sign-in codes (off unless asked, as outside `npm start`).
  const stack = await bootEmbedded({ DEV_SMS_INBOX: 'true', ...environment.env, ...env }, options);
  const db = new Client({ connectionString: environment.database.url });
  await db.connect();
  return {
    environment,
    stack,
    db,
    close: async () => {
      await db.end();
      await stack.close();
      await environment.cleanup();
    },
  };
}
