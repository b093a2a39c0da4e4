import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createTestEnvironment, type TestEnvironment } from '@app/testing';
import { OwnNatsServer } from '../../support/nats-server';
import { accepts, freePort } from '../../support/processes';
import { ServiceProcess } from '../../support/service-process';
import { until } from '../../support/until';

const root = join(__dirname, '../../..');
export const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';
export const haveRedisServer = () => existsSync(REDIS_SERVER_BIN);

/** A Redis that belongs to one test (its own port, nothing saved): stopped and started again at will. */
export class OwnRedisServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(await freePort());
    await server.startAgain();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async startAgain(): Promise<void> {
    const child = spawn(REDIS_SERVER_BIN, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    await until(`redis-server listening on ${this.port}`, () => accepts(this.port), 10_000);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await this.exited;
  }
}

/** The gateway in a process of its own, from its TypeScript sources (as ServiceProcess runs a service). */
export class GatewayProcess {
  private output = '';
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
    child.stderr!.on('data', (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000)));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static async start(env: NodeJS.ProcessEnv): Promise<GatewayProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, ['-r', join(root, 'e2e/support/ts-register.cjs'), join(root, 'services/gateway/src/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        LOG_FORMAT: 'json',
        WEB_DIST_DIR: '/nonexistent',
        METRICS_PORT: '0',
        ...env,
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const gateway = new GatewayProcess(child, port);
    await until(
      'the gateway listening',
      async () => {
        if (child.exitCode !== null) throw new Error(`The gateway exited with ${child.exitCode}:\n${gateway.output}`);
        return gateway.output.includes('Gateway listening on');
      },
      60_000,
    );
    return gateway;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get log(): string {
    return this.output;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends the signal and waits for the process to be gone; returns its exit code (null when killed by the signal). */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<number | null> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }
}

/**
 * The distributed mode on ports of its own: a NATS server (JetStream) and a Redis that the test
 * may stop, a database of its own, each service as its own process (from its sources) and the
 * gateway. Only what a reply needs is started unless asked (auth and chat; memory and the user
 * configuration are optional to a reply).
 */
export class DistributedProduct {
  readonly processes: ServiceProcess[] = [];

  private constructor(
    readonly nats: OwnNatsServer,
    readonly redis: OwnRedisServer,
    readonly environment: TestEnvironment,
    readonly env: NodeJS.ProcessEnv,
    public gateway: GatewayProcess,
  ) {}

  static async start(
    label: string,
    options: { services: string[]; env?: NodeJS.ProcessEnv; gatewayEnv?: NodeJS.ProcessEnv },
  ): Promise<DistributedProduct> {
    const nats = await OwnNatsServer.start();
    const redis = await OwnRedisServer.start();
    const environment = await createTestEnvironment(label, 'nats');
    const env: NodeJS.ProcessEnv = {
      ...environment.env,
      NATS_URL: nats.url,
      REDIS_URL: redis.url,
      MIGRATE_ON_BOOT: 'true',
      RPC_TIMEOUT_MS: '10000',
      GUESTS_PER_IP_PER_HOUR: '10000',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...options.env,
    };
    const product = new DistributedProduct(nats, redis, environment, env, undefined as unknown as GatewayProcess);
    try {
      // One at a time: two replicas migrating the same schema would only queue on its lock.
      for (const name of options.services) await product.startService(name);
      product.gateway = await GatewayProcess.start({ ...env, ...options.gatewayEnv });
    } catch (error) {
      await product.close();
      throw error;
    }
    return product;
  }

  get url(): string {
    return this.gateway.url;
  }

  async startService(name: string, env: NodeJS.ProcessEnv = {}): Promise<ServiceProcess> {
    const service = await ServiceProcess.start(name, { ...this.env, ...env });
    this.processes.push(service);
    return service;
  }

  async restartGateway(env: NodeJS.ProcessEnv = {}): Promise<GatewayProcess> {
    this.gateway = await GatewayProcess.start({ ...this.env, ...env });
    return this.gateway;
  }

  /** Stops every process this test started (by its own handle), then the servers and the database. */
  async close(): Promise<void> {
    await Promise.all([this.gateway?.kill('SIGKILL'), ...this.processes.map((p) => p.kill('SIGKILL'))]);
    await this.redis.stop();
    await this.nats.close();
    await this.environment.cleanup().catch(() => undefined);
  }
}

export interface TimedEvent {
  event: string;
  data: unknown;
  /** ms since the stream was opened (performance.now based). */
  at: number;
}

/** A reply stream read as a browser reads it, event by event, with the time each arrived. */
export class ReplyStreamReader {
  readonly events: TimedEvent[] = [];
  status = 0;
  body = '';
  retryAfter: string | null = null;
  /** performance.now() when the request was sent. */
  readonly sentAt = performance.now();
  readonly finished: Promise<void>;
  private readonly opened = performance.now();
  private ended = false;
  endedAt?: number;

  constructor(url: string, token: string, body: unknown) {
    this.finished = this.read(url, token, body);
  }

  private async read(url: string, token: string, body: unknown): Promise<void> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      this.status = res.status;
      this.retryAfter = res.headers.get('retry-after');
      if (res.status !== 200) {
        this.body = await res.text();
        return;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event) this.events.push({ event, data: data ? JSON.parse(data) : null, at: performance.now() - this.opened });
        }
      }
    } catch (error) {
      this.events.push({ event: 'connection-error', data: { detail: String(error) }, at: performance.now() - this.opened });
    } finally {
      this.ended = true;
      this.endedAt = performance.now() - this.opened;
    }
  }

  get kinds(): string[] {
    return this.events.map((e) => e.event);
  }

  get isOver(): boolean {
    return this.ended;
  }

  /** ms since the stream was opened, on the same clock as the events. */
  now(): number {
    return performance.now() - this.opened;
  }

  has(kind: string): boolean {
    return this.events.some((e) => e.event === kind);
  }

  /** A complete reply: the stored reply, then `done`, and no error or anything after it. */
  get completed(): boolean {
    const kinds = this.kinds;
    return (
      kinds.at(-1) === 'done' &&
      kinds.at(-2) === 'assistant_message' &&
      !kinds.includes('error') &&
      kinds.filter((k) => k === 'done').length === 1
    );
  }

  /** Ended with exactly one `error` followed by exactly one `done`, nothing after. */
  get endedWithOneError(): boolean {
    const kinds = this.kinds;
    return (
      kinds.at(-1) === 'done' &&
      kinds.at(-2) === 'error' &&
      kinds.filter((k) => k === 'error').length === 1 &&
      kinds.filter((k) => k === 'done').length === 1
    );
  }
}

/** A guest with a conversation of its own, through the gateway. */
export async function guestWithChat(baseUrl: string): Promise<{ token: string; chatId: string }> {
  const anon = await fetch(`${baseUrl}/api/v1/auth/anon`, { method: 'POST' });
  if (anon.status !== 200) throw new Error(`POST /auth/anon: ${anon.status} ${await anon.text()}`);
  const { token } = (await anon.json()) as { token: string };
  // A chat process just (re)started may not be heard yet: the gateway's circuit for it closes at its
  // next health probe, and until then it answers 503 with Retry-After, which a client retries.
  const deadline = Date.now() + 30_000;
  let created: Response;
  for (;;) {
    created = await fetch(`${baseUrl}/api/v1/chats`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (created.status !== 503 || Date.now() > deadline) break;
    await created.text();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (created.status !== 201 && created.status !== 200) throw new Error(`POST /chats: ${created.status} ${await created.text()}`);
  const { chat_id: chatId } = (await created.json()) as { chat_id: string };
  return { token, chatId };
}

export function sendMessage(baseUrl: string, who: { token: string; chatId: string }, content: string): ReplyStreamReader {
  return new ReplyStreamReader(`${baseUrl}/api/v1/chats/${who.chatId}/messages`, who.token, { content });
}

/**
 * A TCP proxy in front of a server (PostgreSQL), so a test can make it unreachable for one
 * process and only that one: `cut()` drops every connection and refuses new ones (as a failed-over
 * or crashed database does), `restore()` lets connections through again on the same port.
 */
export class CuttableProxy {
  private server?: import('node:net').Server;
  private readonly sockets = new Set<import('node:net').Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  async restore(): Promise<void> {
    const { createServer, connect } = await import('node:net');
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
