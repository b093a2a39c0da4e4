import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort, processesUsing } from '../support/processes';

const root = join(__dirname, '../..');
const main = join(root, 'deploy/embedded/dist/main.js');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Not ready within 30 s:\n${output}`)), 30_000);
    const poll = setInterval(() => {
      if (output.includes('Assistant is ready: http://')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, output: () => output, exited });
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`Exited with ${code} before being ready:\n${output}`));
    });
  });
}

async function stop(running: Running, signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  running.child.kill(signal);
  const code = await running.exited;
  return { code, ms: Date.now() - started };
}

/**
 * `npm start` as a user runs it: the built embedded host, an embedded PostgreSQL under DATA_DIR,
 * the in-process bus. Ready, stopped by a signal, started again with its data still there.
 */
describe('the embedded product (npm start)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'assistant-boot-'));

  afterAll(() => {
    for (const pid of processesUsing(dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('boots, answers, stops cleanly on SIGTERM and SIGINT, and keeps its data across restarts', async () => {
    expect(existsSync(main)).toBe(true); // built by `npm test` before Jest runs
    const port = await freePort();
    const pgPort = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), GIT_COMMIT: 'boot-test', LOG_FORMAT: 'json' };

    const first = await start(env);
    const base = `http://127.0.0.1:${port}`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await (await fetch(`${base}/api/v1/version/commit`)).json()).toEqual({ commit: 'boot-test' });

    // Leave something in the database, through the embedded PostgreSQL itself.
    const password = readFileSync(join(dataDir, 'postgres.password'), 'utf8').trim();
    const connection = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/postgres`;
    const client = new Client({ connectionString: connection });
    await client.connect();
    await client.query('CREATE TABLE boot_marker (note text)');
    await client.query("INSERT INTO boot_marker VALUES ('kept')");
    await client.end();

    const firstStop = await stop(first, 'SIGTERM');
    expect(firstStop.code).toBe(0);
    expect(firstStop.ms).toBeLessThan(10_000);
    expect(first.output()).toContain('Stopped cleanly');
    expect(processesUsing(dataDir)).toEqual([]);

    const second = await start(env);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const again = new Client({ connectionString: connection });
    await again.connect();
    const { rows } = await again.query('SELECT note FROM boot_marker');
    const migrations = await again.query('SELECT count(*)::int AS n FROM auth.migrations');
    await again.end();
    expect(rows).toEqual([{ note: 'kept' }]);
    expect(migrations.rows[0].n).toBeGreaterThan(0);
    // The second boot found the cluster and applied nothing new.
    expect(second.output()).not.toContain('Creating the embedded PostgreSQL cluster');
    expect(second.output()).not.toContain('Applied migrations');

    const secondStop = await stop(second, 'SIGINT');
    expect(secondStop.code).toBe(0);
    expect(secondStop.ms).toBeLessThan(10_000);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 90_000);

  it('refuses a bad configuration with a plain message naming the variable', async () => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir, PORT: 'eighty', NATS_URL: 'http://wrong' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(78);
    expect(output).toContain('NATS_URL: must be a URL starting with nats://');
    expect(output).toContain('PORT:');
    expect(output).not.toContain('    at ');
  });

  /** The process's exit code and its error output, for a start that must be refused. */
  async function refusedStart(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000); // it would have started: fail, do not hang
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    return { code, output };
  }

  const goodKey = randomBytes(32).toString('base64');
  it.each([
    [
      'the docker-compose default key',
      { AUTH_KEY_ENCRYPTION_KEY: 'ZGV2LW9ubHktYXV0aC1rZXktZW5jcnlwdGlvbi1rZXk=' },
      'AUTH_KEY_ENCRYPTION_KEY: is a value published',
    ],
    [
      "the k8s dev overlay's key",
      { AUTH_KEY_ENCRYPTION_KEY: 'CHANGE-ME-dev-only-auth-key-encryption-key0' },
      'AUTH_KEY_ENCRYPTION_KEY: is a value published',
    ],
    [
      'an all-zero key',
      { AUTH_KEY_ENCRYPTION_KEY: Buffer.alloc(32).toString('base64') },
      'AUTH_KEY_ENCRYPTION_KEY: has too little entropy',
    ],
    [
      'TWILIO_AUTH_TOKEN=changeme',
      { AUTH_KEY_ENCRYPTION_KEY: goodKey, TWILIO_AUTH_TOKEN: 'changeme' },
      'TWILIO_AUTH_TOKEN: is a placeholder',
    ],
    ['an http:// PUBLIC_URL', { AUTH_KEY_ENCRYPTION_KEY: goodKey, PUBLIC_URL: 'http://assistant.example' }, 'PUBLIC_URL: must be https://'],
    [
      '32 times "x" as FILES_URL_SIGNING_SECRET',
      { AUTH_KEY_ENCRYPTION_KEY: goodKey, FILES_URL_SIGNING_SECRET: 'x'.repeat(32) },
      'FILES_URL_SIGNING_SECRET: has too little entropy',
    ],
  ])(
    'in production, refuses to start with %s: exit 78 naming the variable (issue 22.2)',
    async (_, env, named) => {
      const { code, output } = await refusedStart(main, { NODE_ENV: 'production', PORT: '0', DEV_SMS_INBOX: '', ...env });
      expect({ code, named: output.includes(named) }).toEqual({ code: 78, named: true });
      expect(output).not.toContain('    at ');
    },
    40_000,
  );

  it('a standalone service refuses the same in production (the auth service of the distributed mode)', async () => {
    const { code, output } = await refusedStart(join(root, 'services/auth/dist/main.js'), {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://assistant:CHANGE-ME@127.0.0.1:5432/assistant',
      NATS_URL: 'nats://127.0.0.1:4222',
      AUTH_KEY_ENCRYPTION_KEY: 'CHANGE-ME-dev-only-auth-key-encryption-key0',
    });
    expect(code).toBe(78);
    expect(output).toContain('AUTH_KEY_ENCRYPTION_KEY: is a value published');
    expect(output).toContain('DATABASE_URL: its password is a value published');
  }, 40_000);
});
