// Smoke test of a running deployment: the operational endpoints answer, quickly, under a few
// virtual users. Run it after every deployment, before any load test.
//
//   k6 run deploy/k6/smoke.js                                  # http://localhost:8080
//   k6 run -e BASE_URL=https://assistant.example.com deploy/k6/smoke.js
//
// Options (-e NAME=value): BASE_URL, VUS (default 5), HOLD (default 30s).
// See deploy/k6/README.md.

import http from 'k6/http';
import { check, sleep } from 'k6';
import { BASE_URL, json, numberOption, rampScenario, requireReady, stringOption } from './lib/common.js';

const VUS = numberOption('VUS', 5);
const HOLD = stringOption('HOLD', '30s');

export const options = {
  scenarios: {
    smoke: rampScenario({ vus: VUS, hold: HOLD, rampUp: '10s', rampDown: '5s', startVUs: 1 }),
  },
  thresholds: {
    // Any failed request (network error or a status outside 200-399) is a deployment problem.
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    // Liveness never touches a dependency: it must be fast.
    'http_req_duration{endpoint:healthz}': ['p(95)<100'],
    // Readiness asks every service over NATS (each with its own dependency checks).
    'http_req_duration{endpoint:readyz}': ['p(95)<500'],
    'http_req_duration{endpoint:version}': ['p(95)<200'],
    'http_req_duration{endpoint:openapi}': ['p(95)<500'],
  },
};

export function setup() {
  requireReady({ endpoint: 'readyz' });
}

export default function () {
  const healthz = http.get(`${BASE_URL}/healthz`, { tags: { endpoint: 'healthz' } });
  check(healthz, {
    'healthz: 200': (r) => r.status === 200,
    'healthz: status ok': (r) => json(r)?.status === 'ok',
  });

  const readyz = http.get(`${BASE_URL}/readyz`, { tags: { endpoint: 'readyz' } });
  check(readyz, {
    'readyz: 200': (r) => r.status === 200,
    'readyz: status ready': (r) => json(r)?.status === 'ready',
    'readyz: every check up': (r) => Object.values(json(r)?.checks ?? {}).every((c) => c.status === 'up'),
  });

  const version = http.get(`${BASE_URL}/api/v1/version/commit`, { tags: { endpoint: 'version' } });
  check(version, {
    'version: 200': (r) => r.status === 200,
    'version: has a commit': (r) => typeof json(r)?.commit === 'string' && json(r).commit.length > 0,
    // The client polls it to reload on a new release: a cached answer would hide the release.
    'version: not cacheable': (r) => /no-store/.test(r.headers['Cache-Control'] || ''),
  });

  const openapi = http.get(`${BASE_URL}/api/docs/openapi.json`, { tags: { endpoint: 'openapi' } });
  const spec = json(openapi);
  check(openapi, {
    'openapi: 200': (r) => r.status === 200,
    'openapi: is an OpenAPI document': () => typeof spec?.openapi === 'string',
    'openapi: documents the version route': () => Boolean(spec?.paths?.['/api/v1/version/commit']),
  });

  sleep(1);
}
