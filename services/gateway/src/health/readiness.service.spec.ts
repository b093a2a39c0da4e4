import { SERVICE_NAMES, type HealthReport } from '@app/contracts';
import type { Bus, KeyValueStore, RpcClient } from '@app/platform';
import type { GatewayConfig } from '../config';
import type { GatewayLifecycle } from './lifecycle';
import { ReadinessService } from './readiness.service';

/** What each service answers to its health call (ready with an up database unless a test says otherwise). */
class FakeServices {
  readonly asked: { subject: string; caller: unknown; timeoutMs?: number }[] = [];
  answers: Record<string, HealthReport | Error> = {};

  async call(contract: { subject: string }, _data: unknown, caller: unknown, options?: { timeoutMs?: number }): Promise<HealthReport> {
    this.asked.push({ subject: contract.subject, caller, timeoutMs: options?.timeoutMs });
    const service = SERVICE_NAMES.find((s) => contract.subject.startsWith(`${s}.`))!;
    const answer = this.answers[service] ?? ready(service, 3);
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

function ready(service: string, databaseMs: number): HealthReport {
  return { service, status: 'ready', checks: { database: { status: 'up', latency_ms: databaseMs } } };
}
function databaseDown(service: string, detail: string, latency = 2000): HealthReport {
  return { service, status: 'not_ready', checks: { database: { status: 'down', latency_ms: latency, detail } } };
}

let services: FakeServices;
let bus: { ping: jest.Mock };
let kv: { ping: jest.Mock };
let draining: boolean;
let readiness: ReadinessService;

beforeEach(() => {
  services = new FakeServices();
  bus = { ping: jest.fn(async () => undefined) };
  kv = { ping: jest.fn(async () => undefined) };
  draining = false;
  const lifecycle = {
    get isDraining() {
      return draining;
    },
  } as unknown as GatewayLifecycle;
  readiness = new ReadinessService(
    services as unknown as RpcClient,
    bus as unknown as Bus,
    kv as unknown as KeyValueStore,
    { READINESS_TIMEOUT_MS: 1500 } as GatewayConfig,
    lifecycle,
  );
});

const statuses = (checks: Record<string, { status: string }>) =>
  Object.fromEntries(Object.entries(checks).map(([name, c]) => [name, c.status]));

describe('ReadinessService', () => {
  it('is ready when the bus, the cache and every service answer; the database as the services see it', async () => {
    const answer = await readiness.check('req-1');
    expect(answer.status).toBe('ready');
    expect(statuses(answer.checks)).toEqual(
      Object.fromEntries([['bus', 'up'], ['cache', 'up'], ...SERVICE_NAMES.map((s) => [s, 'up']), ['database', 'up']]),
    );
    expect(answer.checks.database).toEqual({ status: 'up', latency_ms: 3 });
  });

  it('asks each service once, as the system (no user), with the configured time limit', async () => {
    await readiness.check('req-1');
    expect(services.asked).toHaveLength(SERVICE_NAMES.length);
    for (const asked of services.asked) {
      expect(asked.caller).toEqual({ user_id: null, is_anon: false, session_id: null, request_id: 'req-1' });
      expect(asked.timeoutMs).toBe(1500);
    }
  });

  it('is not ready when one service is not, naming what is down there', async () => {
    services.answers.memory = {
      service: 'memory',
      status: 'not_ready',
      checks: { database: { status: 'up', latency_ms: 1 }, embeddings: { status: 'down', latency_ms: 5, detail: 'no key' } },
    };
    const answer = await readiness.check('r');
    expect(answer.status).toBe('not_ready');
    expect(answer.checks.memory).toMatchObject({ status: 'down', detail: 'embeddings: no key' });
    expect(answer.checks.chat.status).toBe('up');
  });

  it('says "not ready" for a service that is not ready without naming a failed check, and the error for one that does not answer', async () => {
    services.answers.tts = { service: 'tts', status: 'not_ready', checks: {} };
    services.answers.sms = new Error('no responders for sms.health');
    const answer = await readiness.check('r');
    expect(answer.checks.tts).toMatchObject({ status: 'down', detail: 'not ready' });
    expect(answer.checks.sms).toMatchObject({ status: 'down', detail: 'no responders for sms.health' });
  });

  it('sums the database up: down when any service sees it down, naming them, with the slowest latency', async () => {
    services.answers.chat = databaseDown('chat', 'connection refused', 2000);
    services.answers.files = databaseDown('files', 'timeout', 2100);
    const { checks } = await readiness.check('r');
    expect(checks.database).toEqual({ status: 'down', latency_ms: 2100, detail: 'chat, files: connection refused' });
  });

  it('takes the slowest database latency when all are up, and leaves the database out when no service reports one', async () => {
    services.answers.auth = ready('auth', 40);
    expect((await readiness.check('r')).checks.database).toEqual({ status: 'up', latency_ms: 40 });
    for (const s of SERVICE_NAMES) services.answers[s] = { service: s, status: 'ready', checks: {} };
    expect((await readiness.check('r')).checks.database).toBeUndefined();
  });

  it('is not ready when the bus or the cache is down', async () => {
    bus.ping.mockRejectedValueOnce(new Error('NATS disconnected'));
    const answer = await readiness.check('r');
    expect([answer.status, answer.checks.bus.detail]).toEqual(['not_ready', 'NATS disconnected']);
    kv.ping.mockRejectedValueOnce(new Error('Redis away'));
    expect((await readiness.check('r')).checks.cache).toMatchObject({ status: 'down', detail: 'Redis away' });
  });

  it('with scope "gateway", checks only the bus and the cache: one service down does not take the gateway out', async () => {
    services.answers.chat = new Error('chat is down');
    const answer = await readiness.check('r', 'gateway');
    expect(answer.status).toBe('ready');
    expect(Object.keys(answer.checks).sort()).toEqual(['bus', 'cache']);
    expect(services.asked).toEqual([]);
  });

  it('is never ready while shutting down, asking nobody', async () => {
    draining = true;
    for (const scope of ['all', 'gateway'] as const) {
      expect(await readiness.check('r', scope)).toEqual({
        status: 'not_ready',
        checks: { gateway: { status: 'down', latency_ms: 0, detail: 'shutting down' } },
      });
    }
    expect([services.asked, bus.ping.mock.calls, kv.ping.mock.calls]).toEqual([[], [], []]);
  });
});
