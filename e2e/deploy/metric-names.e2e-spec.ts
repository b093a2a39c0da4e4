import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METRIC_LABELS, METRIC_NAMES } from '@app/platform';
import { parseAllDocuments } from 'yaml';

const root = join(__dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** The metrics the processes register (what Prometheus sees, histograms by their base name). */
const registered = new Set<string>(Object.values(METRIC_NAMES));
const labels = new Set<string>(Object.values(METRIC_LABELS));
/** Labels Prometheus adds to every scraped series (the target's), and the histogram's bucket bound. */
const TARGET_LABELS = new Set(['job', 'namespace', 'pod', 'instance', 'service', 'container', 'endpoint', 'le']);
/** Ours are the assistant_* metrics and the gateway's HTTP histogram; the rest come from exporters. */
const OURS = /\b(?:assistant_[a-z0-9_]+|http_server_[a-z0-9_]+)\b/g;
const baseName = (name: string) => name.replace(/_(?:bucket|count|sum|total)$/, '');
/** The metric names of ours a text mentions (histograms and counters by their base name; our label names left out). */
const metricsIn = (text: string) => [...text.matchAll(OURS)].map(([name]) => baseName(name)).filter((name) => !labels.has(name));

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
}

function ruleExpressions(): Rule[] {
  const docs = parseAllDocuments(read('k8s/components/monitoring/prometheus-rules.yaml')).map((doc) => doc.toJS());
  return docs.flatMap((doc: { spec: { groups: { rules: Rule[] }[] } }) => doc.spec.groups.flatMap((group) => group.rules));
}

/**
 * The alerts, the chat autoscaler and prometheus-adapter (k8s/components/monitoring) read metrics
 * by name: each name and label they use must be one the code registers (libs/platform
 * telemetry/metrics.ts), or the alert never fires and the autoscaler never sees its metric.
 */
describe('the metric names of the Kubernetes monitoring match the ones the processes register', () => {
  const rules = ruleExpressions();

  it('reads the alert rules', () => {
    expect(rules.length).toBeGreaterThan(5);
    expect(rules.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining(['AssistantHTTP5xxRateHigh', 'AssistantBusRPCLatencyHigh', 'AssistantOutboxLagHigh']),
    );
  });

  it.each(ruleExpressions().map((rule) => [rule.alert ?? rule.record, rule] as const))(
    '%s uses registered metrics and labels only',
    (_name, rule) => {
      for (const name of metricsIn(rule.expr)) expect(registered).toContain(name);
      for (const [, name, matchers] of rule.expr.matchAll(/\b([a-z_][a-z0-9_]*)\{([^}]*)\}/g)) {
        if (!name.match(OURS)) continue;
        for (const [, label] of matchers.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) {
          if (!TARGET_LABELS.has(label)) expect(labels).toContain(label);
        }
      }
    },
  );

  it('the alerts watch what the services must provide: HTTP errors, bus latency, the outbox', () => {
    const used = new Set(rules.flatMap((rule) => metricsIn(rule.expr)));
    expect([...used]).toEqual(
      expect.arrayContaining([METRIC_NAMES.busRpcDuration, METRIC_NAMES.httpServerDuration, METRIC_NAMES.outboxLag]),
    );
    const http = rules.find((rule) => rule.alert === 'AssistantHTTP5xxRateHigh')!.expr;
    expect(http).toContain(`${METRIC_LABELS.httpStatus}=~"5.."`);
  });

  it('the chat autoscaler and prometheus-adapter read the active reply streams gauge', () => {
    const kustomization = read('k8s/components/monitoring/kustomization.yaml');
    const adapter = read('k8s/components/monitoring/prometheus-adapter-values.yaml');
    expect(metricsIn(kustomization)).toEqual([METRIC_NAMES.activeReplyStreams]);
    expect([...new Set(metricsIn(adapter))]).toEqual([METRIC_NAMES.activeReplyStreams]);
  });

  it('k8s/README.md names only registered metrics, and documents every one', () => {
    const readme = read('k8s/README.md');
    const named = new Set(metricsIn(readme));
    for (const name of named) expect(registered).toContain(name);
    for (const name of registered) expect(named).toContain(name);
    for (const label of labels) expect(readme).toContain(`\`${label}\``);
  });
});
