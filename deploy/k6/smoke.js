// Smoke test of a running deployment: the operational endpoints answer, quickly, under a few
// virtual users. Run it after every deployment, before any load test.
//
//   k6 run deploy/k6/smoke.js                                  # http://localhost:8080
//   k6 run -e BASE_URL=https://assistant.example.com deploy/k6/smoke.js
//
// Options (-e NAME=value): BASE_URL, VUS (default 5), HOLD (default 30s).
// See deploy/k6/README.md.

/* global __ENV */ // provided by k6

import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/+$/, '');
const VUS = Number(__ENV.VUS || 5);
const HOLD = __ENV.HOLD || '30s';

export const options = {
  scenarios: {
    smoke: {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [
        { duration: '10s', target: VUS },
        { duration: HOLD, target: VUS },
        { duration: '5s', target: 0 },
      ],
      gracefulRampDown: '5s',
    },
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

function json(response) {
  try {
    return response.json();
  } catch {
    return undefined;
  }
}

// Stop at once, with a clear message, when the target is not up: the numbers would mean nothing.
export function setup() {
  const response = http.get(`${BASE_URL}/readyz`, { tags: { endpoint: 'readyz' } });
  if (response.status !== 200) {
    exec.test.abort(`${BASE_URL}/readyz answered ${response.status}: ${String(response.body).slice(0, 500)}`);
  }
  return {};
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
