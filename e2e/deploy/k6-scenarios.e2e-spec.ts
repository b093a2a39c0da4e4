/**
 * The k6 scenarios of deploy/k6 behave as their README says, run in Node against a fake gateway
 * that enforces the real limits (e2e/deploy/k6-harness.mjs; k6 itself cannot be installed here):
 * a virtual user makes one guest and reuses it, so a default run stays within the gateway's
 * GUESTS_PER_IP_PER_HOUR (60) from one address; a run that would exceed it stops at once and says
 * which setting to raise; the scenarios share one module.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../..');
const k6 = join(root, 'deploy/k6');

interface Run {
  guestsCreated: number;
  guestRefusals: number;
  requests: number;
  checks: number;
  failedChecks: string[];
  aborted?: string;
  metrics: Record<string, { count: number; sum: number }>;
}

function run(scenario: string, vus: number, iterations: number, settings: Record<string, string | number> = {}): Run {
  const args = [
    join(__dirname, 'k6-harness.mjs'),
    join(k6, scenario),
    String(vus),
    String(iterations),
    ...Object.entries({ THINK_SECONDS: 0, ...settings }).map(([k, v]) => `${k}=${v}`),
  ];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Run;
}

describe('deploy/k6 scenarios', () => {
  it('make one guest per virtual user and reuse it: 10 users x 12 journeys stay within the default 60 guests an hour', () => {
    const result = run('chat-journey.js', 10, 12);
    expect(result).toMatchObject({ guestsCreated: 10, guestRefusals: 0, failedChecks: [] });
    expect(result.aborted).toBeUndefined();
    expect(result.metrics.journey_succeeded).toEqual({ count: 120, sum: 120 });
    expect(result.metrics.guests_created).toEqual({ count: 10, sum: 10 });
  });

  it('replace a guest after MESSAGES_PER_GUEST messages, before the chat daily limit', () => {
    const result = run('chat-journey.js', 2, 12, { MESSAGES_PER_GUEST: 5 });
    // ceil(12 / 5) guests per user.
    expect(result).toMatchObject({ guestsCreated: 6, guestRefusals: 0, failedChecks: [] });
  });

  it('replace a guest the chat refuses (its daily limit reached) instead of failing every later journey', () => {
    // The fake chat allows 50 messages a guest; the scenario is told it may send 100.
    const result = run('chat-journey.js', 1, 60, { MESSAGES_PER_GUEST: 100 });
    expect(result.guestsCreated).toBe(2);
    expect(result.metrics.journey_succeeded).toEqual({ count: 60, sum: 59 });
  });

  it('stop at once, naming GUESTS_PER_IP_PER_HOUR, when the gateway refuses a guest', () => {
    const result = run('chat-journey.js', 10, 12, { MESSAGES_PER_GUEST: 1 });
    expect(result.guestRefusals).toBe(1);
    expect(result.aborted).toMatch(/GUESTS_PER_IP_PER_HOUR/);
    expect(result.aborted).toMatch(/deploy\/k6\/README\.md/);
  });

  it('smoke-test a healthy gateway with every check passing', () => {
    const result = run('smoke.js', 2, 3);
    expect(result).toMatchObject({ failedChecks: [], guestsCreated: 0 });
    expect(result.aborted).toBeUndefined();
    expect(result.checks).toBeGreaterThan(0);
  });

  it('share one module: only it creates guests, parses streams and reads the options', () => {
    const scenarios = readdirSync(k6).filter((f) => f.endsWith('.js'));
    expect(scenarios.sort()).toEqual(['chat-journey.js', 'smoke.js']);
    for (const file of scenarios) {
      const source = readFileSync(join(k6, file), 'utf8');
      const code = source
        .split('\n')
        .filter((line) => !line.trim().startsWith('//'))
        .join('\n');
      expect({ file, common: code.includes("from './lib/common.js'") }).toEqual({ file, common: true });
      expect({ file, createsGuests: code.includes('/api/v1/auth/anon') }).toEqual({ file, createsGuests: false });
      expect({ file, ownCopies: /function (parseEventStream|json|headers|requestId)\(/.test(source) }).toEqual({ file, ownCopies: false });
    }
  });

  it('say in the README how to run against a deployment, what to raise and the thresholds', () => {
    const readme = readFileSync(join(k6, 'README.md'), 'utf8');
    for (const term of [
      'BASE_URL',
      'GUESTS_PER_IP_PER_HOUR',
      'RATE_LIMIT_PER_MINUTE',
      'CHAT_GUEST_DAILY_LIMIT',
      'MESSAGES_PER_GUEST',
      '## Thresholds',
      'kubectl -n assistant set env deploy/gateway',
    ]) {
      expect({ term, documented: readme.includes(term) }).toEqual({ term, documented: true });
    }
    // The limit is configuration in the Kubernetes ConfigMap too.
    expect(readFileSync(join(root, 'k8s/base/config/gateway.env'), 'utf8')).toMatch(/^GUESTS_PER_IP_PER_HOUR=60$/m);
  });
});
