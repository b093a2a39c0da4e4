// Runs a k6 scenario of deploy/k6 in Node against a fake gateway (k6-stubs/), the way k6 would run
// it: setup() once, then each virtual user's iterations in turn. Each virtual user gets its own
// copy of the scenario's modules (as in k6, where every VU has its own JavaScript runtime).
//
//   node e2e/deploy/k6-harness.mjs <scenario.js> <vus> <iterations per vu> [NAME=value ...]
//
// Prints { guestsCreated, guestRefusals, requests, checks, failedChecks, aborted, metrics } where
// each metric is { count, sum } (a Rate's sum is the number of true values).
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [scenario, vus, iterations, ...settings] = process.argv.slice(2);
globalThis.__ENV = Object.fromEntries(settings.map((setting) => setting.split(/=(.*)/s).slice(0, 2)));

const stubs = { k6: 'k6.mjs', 'k6/http': 'http.mjs', 'k6/execution': 'execution.mjs', 'k6/metrics': 'metrics.mjs' };
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (stubs[specifier]) return { url: pathToFileURL(join(import.meta.dirname, 'k6-stubs', stubs[specifier])).href, shortCircuit: true };
    const next = nextResolve(specifier, context);
    // k6 scripts are ES modules (the repository's package.json does not say so).
    const resolved = next.url.startsWith('file:') && /\.js(\?|$)/.test(next.url) ? { ...next, format: 'module' } : next;
    // A scenario loaded for VU n imports its own modules for VU n too.
    const vu = context.parentURL && new URL(context.parentURL).searchParams.get('vu');
    if (vu && specifier.startsWith('.')) {
      const url = new URL(resolved.url);
      url.searchParams.set('vu', vu);
      return { ...resolved, url: url.href };
    }
    return resolved;
  },
});

const { gateway } = await import('./k6-stubs/gateway.mjs');
const { recorded } = await import('./k6-stubs/k6.mjs');
const { position } = await import('./k6-stubs/execution.mjs');
const { metrics } = await import('./k6-stubs/metrics.mjs');
const scenarioUrl = pathToFileURL(scenario).href;

const instances = [];
for (let vu = 1; vu <= Number(vus); vu += 1) instances.push(await import(`${scenarioUrl}?vu=${vu}`));
try {
  instances[0].setup?.();
  for (let iteration = 0; iteration < Number(iterations); iteration += 1) {
    for (let vu = 1; vu <= instances.length; vu += 1) {
      position.vu = vu;
      position.iteration = iteration;
      instances[vu - 1].default();
    }
  }
} catch (error) {
  if (position.aborted === undefined) throw error;
}
process.stdout.write(
  JSON.stringify({
    guestsCreated: gateway.guestsCreated,
    guestRefusals: gateway.guestRefusals,
    requests: gateway.requests,
    checks: recorded.checks,
    failedChecks: [...new Set(recorded.failed)],
    aborted: position.aborted,
    metrics: Object.fromEntries(
      Object.entries(metrics).map(([name, values]) => [
        name,
        { count: values.length, sum: values.reduce((sum, value) => sum + Number(value), 0) },
      ]),
    ),
  }),
);
