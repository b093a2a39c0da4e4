/**
 * The distributed-mode deployment files hold together: docker-compose.yml validates and has every
 * part, and the Kubernetes overlays render offline with probes, resources, security settings,
 * autoscalers, the Ingress routes and placeholder-only Secrets.
 *
 * Needs no cluster and no Docker engine. The cases that call `docker-compose` (v1 validates
 * offline) or `kubectl` (its built-in kustomize) are skipped, with the reason in their name, when
 * the tool is not on PATH.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const root = join(__dirname, '../..');

const SERVICES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'] as const;
const APP_DEPLOYMENTS = ['gateway', ...SERVICES, 'web'] as const;
const SERVICE_HEALTH_PORT = 9000;
const GATEWAY_PORT = 8080;

function onPath(command: string): boolean {
  try {
    execFileSync('which', [command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const hasDockerCompose = onPath('docker-compose');
const hasKubectl = onPath('kubectl');

// --- Kubernetes objects, as far as these checks read them ------------------------------------

interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
}

interface Probe {
  httpGet?: { path: string; port: number | string };
  exec?: { command: string[] };
  tcpSocket?: { port: number | string };
}

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type: string };
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
}

interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: SecurityContext;
}

interface PodTemplate {
  metadata?: { labels?: Record<string, string> };
  spec: PodSpec;
}

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface Workload extends K8sObject {
  spec: { template: PodTemplate; volumeClaimTemplates?: unknown[] };
}

interface Hpa extends K8sObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: { type: string; resource?: { name: string; target: { type: string; averageUtilization?: number } } }[];
  };
}

interface Ingress extends K8sObject {
  spec: {
    tls?: { hosts?: string[]; secretName?: string }[];
    rules: {
      host?: string;
      http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { name?: string; number?: number } } } }[] };
    }[];
  };
}

function render(overlay: string): K8sObject[] {
  const output = execFileSync('kubectl', ['kustomize', `k8s/overlays/${overlay}`], { cwd: root, encoding: 'utf8' });
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length) throw new Error(`k8s/overlays/${overlay}: ${document.errors[0].message}`);
    return document.toJS() as K8sObject;
  });
}

const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind) as T[];

/** The port number a probe targets, resolving a named port against the container's ports. */
function probePort(container: Container, probe: Probe | undefined): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

function runsAsNonRoot(pod: PodSpec, container: Container): boolean {
  return (container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) === true;
}

/**
 * True when a Secret value could be a real credential. Placeholders (CHANGE-ME), empty values and
 * plain identifiers under keys that are not secret by name (a user or database name) pass.
 */
function looksReal(key: string, value: string): boolean {
  const knownCredential = [/sk-[A-Za-z0-9_-]{20,}/, /\bAC[0-9a-f]{32}\b/, /\bAKIA[0-9A-Z]{16}\b/, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\bxox[bp]-/, /\bghp_[A-Za-z0-9]{20,}/];
  if (knownCredential.some((pattern) => pattern.test(value))) return true;
  if (value === '' || value.includes('CHANGE-ME')) return false;
  const secretByName = /PASSWORD|SECRET|TOKEN|KEY|URL|AUTH|CREDENTIAL/i.test(key);
  return secretByName || !/^[a-z][a-z0-9_-]{0,62}$/.test(value);
}

// --- docker-compose.yml -------------------------------------------------------------------------

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  env_file?: string[] | string;
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] | string };
  user?: string;
  read_only?: boolean;
}

describe('docker-compose.yml', () => {
  const file = join(root, 'docker-compose.yml');
  // `merge`: the file shares its settings through YAML anchors and `<<` merge keys.
  const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const asList = (value: string[] | string | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

  (hasDockerCompose ? it : it.skip)(
    hasDockerCompose ? 'validates with `docker-compose config -q`' : 'validates with `docker-compose config -q` (skipped: docker-compose is not on PATH)',
    () => {
      expect(() => execFileSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, stdio: 'pipe' })).not.toThrow();
    },
  );

  it('has the infrastructure: postgres, nats with JetStream, redis, minio, the collector', () => {
    for (const name of ['postgres', 'nats', 'redis', 'minio', 'otel-collector']) expect(services).toHaveProperty(name);
    expect(services.postgres.image).toMatch(/^postgres:18/);
    expect(asList(services.nats.command)).toContain('-js');
    expect(services.postgres.healthcheck?.test.toString()).toContain('pg_isready');
  });

  it('has the gateway, every service and the web client', () => {
    for (const name of APP_DEPLOYMENTS) expect(services).toHaveProperty(name);
  });

  it('runs each service from the shared image, probed on /readyz of the health port, after the migrations', () => {
    for (const name of SERVICES) {
      const service = services[name];
      expect(asList(service.command)).toEqual([`services/${name}/dist/main.js`]);
      expect(asList(service.env_file)).toEqual(expect.arrayContaining(['deploy/env/common.env', 'deploy/env/service.env']));
      expect(service.healthcheck?.test.toString()).toContain(`:${SERVICE_HEALTH_PORT}/readyz`);
      expect(service.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        nats: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(service.user).toBe('1000:1000');
      expect(service.read_only).toBe(true);
    }
    expect(readFileSync(join(root, 'deploy/env/service.env'), 'utf8')).toMatch(new RegExp(`^HEALTH_PORT=${SERVICE_HEALTH_PORT}$`, 'm'));
  });

  it('migrates every service in the one-shot', () => {
    const script = asList(services.migrate.command).join('\n');
    for (const name of SERVICES) expect(script).toContain(name);
    expect(script).toContain('migrate');
  });

  it('serves the web client and the API on one published origin', () => {
    expect(services.web.ports).toEqual([expect.stringMatching(/:8080$/)]);
    expect(services.gateway.ports).toBeUndefined();
    expect(asList(services.gateway.env_file)).toContain('deploy/env/gateway.env');
    expect(readFileSync(join(root, 'deploy/env/gateway.env'), 'utf8')).toMatch(/^HOST=0\.0\.0\.0$/m);
  });

  it('refers only to files that exist', () => {
    const envFiles = Object.values(services).flatMap((service) => asList(service.env_file));
    for (const path of [...new Set(envFiles), 'deploy/otel/collector.yaml', 'deploy/docker/Dockerfile', 'deploy/docker/nginx.conf']) {
      expect(existsSync(join(root, path))).toBe(true);
    }
  });
});

// --- Kubernetes overlays ------------------------------------------------------------------------

describe.each(['dev', 'prod'])('k8s/overlays/%s', (overlay) => {
  const test = hasKubectl ? it : it.skip;
  const title = (name: string) => (hasKubectl ? name : `${name} (skipped: kubectl is not on PATH)`);
  let objects: K8sObject[] = [];

  beforeAll(() => {
    if (hasKubectl) objects = render(overlay);
  });

  test(title('renders offline with kubectl kustomize'), () => {
    expect(objects.length).toBeGreaterThan(0);
    // Namespace-less base; the overlay puts everything in its namespace.
    const namespaced = objects.filter((o) => o.kind !== 'Namespace');
    const namespaces = new Set(namespaced.map((o) => o.metadata.namespace));
    expect(namespaces.size).toBe(1);
    expect(ofKind(objects, 'Namespace').map((n) => n.metadata.name)).toEqual([...namespaces]);
  });

  test(title('has a Deployment for the gateway, each service and the web client'), () => {
    const names = ofKind<Workload>(objects, 'Deployment').map((d) => d.metadata.name);
    expect(names).toEqual(expect.arrayContaining([...APP_DEPLOYMENTS]));
  });

  test(title('probes readiness on /readyz and liveness on /healthz of the right port'), () => {
    for (const deployment of ofKind<Workload>(objects, 'Deployment')) {
      const name = deployment.metadata.name;
      for (const container of deployment.spec.template.spec.containers) {
        expect({ name, readiness: container.readinessProbe !== undefined, liveness: container.livenessProbe !== undefined }).toEqual({ name, readiness: true, liveness: true });
      }
      if (!(APP_DEPLOYMENTS as readonly string[]).includes(name)) continue;
      const [container] = deployment.spec.template.spec.containers;
      // The gateway's probe asks only for its own dependencies: one service down must not empty its Service.
      const readiness = name === 'gateway' ? '/readyz?scope=gateway' : '/readyz';
      expect({ name, readiness: container.readinessProbe?.httpGet?.path, liveness: container.livenessProbe?.httpGet?.path }).toEqual({ name, readiness, liveness: '/healthz' });
      if (name === 'gateway') {
        expect(probePort(container, container.readinessProbe)).toBe(GATEWAY_PORT);
        expect(probePort(container, container.livenessProbe)).toBe(GATEWAY_PORT);
      } else if (name !== 'web') {
        expect({ name, port: probePort(container, container.readinessProbe) }).toEqual({ name, port: SERVICE_HEALTH_PORT });
        expect({ name, port: probePort(container, container.livenessProbe) }).toEqual({ name, port: SERVICE_HEALTH_PORT });
        expect(container.args).toEqual([`services/${name}/dist/main.js`]);
      }
    }
  });

  test(title('gives every container resource requests and limits'), () => {
    for (const workload of [...ofKind<Workload>(objects, 'Deployment'), ...ofKind<Workload>(objects, 'StatefulSet'), ...ofKind<Workload>(objects, 'Job')]) {
      for (const container of allContainers(workload.spec.template.spec)) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        expect({ where, requests: Object.keys(container.resources?.requests ?? {}).sort() }).toEqual({ where, requests: ['cpu', 'memory'] });
        expect({ where, limits: Object.keys(container.resources?.limits ?? {}).includes('memory') }).toEqual({ where, limits: true });
      }
    }
  });

  test(title('runs every pod as non-root, without privilege escalation or capabilities'), () => {
    for (const workload of [...ofKind<Workload>(objects, 'Deployment'), ...ofKind<Workload>(objects, 'StatefulSet'), ...ofKind<Workload>(objects, 'Job')]) {
      const pod = workload.spec.template.spec;
      expect({ workload: workload.metadata.name, seccomp: pod.securityContext?.seccompProfile?.type }).toEqual({ workload: workload.metadata.name, seccomp: 'RuntimeDefault' });
      for (const container of allContainers(pod)) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        expect({ where, nonRoot: runsAsNonRoot(pod, container) }).toEqual({ where, nonRoot: true });
        expect({ where, escalation: container.securityContext?.allowPrivilegeEscalation }).toEqual({ where, escalation: false });
        expect({ where, drop: container.securityContext?.capabilities?.drop }).toEqual({ where, drop: ['ALL'] });
        expect({ where, readOnly: container.securityContext?.readOnlyRootFilesystem }).toEqual({ where, readOnly: true });
      }
    }
  });

  test(title('scales each Deployment of the application with an autoscaling/v2 HPA on CPU'), () => {
    const hpas = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler');
    for (const name of APP_DEPLOYMENTS) {
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === name);
      expect({ name, found: hpa !== undefined }).toEqual({ name, found: true });
      expect(hpa!.apiVersion).toBe('autoscaling/v2');
      expect(hpa!.spec.maxReplicas).toBeGreaterThanOrEqual(hpa!.spec.minReplicas ?? 1);
      const cpu = hpa!.spec.metrics?.find((m) => m.resource?.name === 'cpu');
      expect(cpu?.resource?.target).toEqual({ type: 'Utilization', averageUtilization: 70 });
    }
  });

  test(title('keeps a PodDisruptionBudget on the gateway'), () => {
    const pdbs = ofKind<K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(objects, 'PodDisruptionBudget');
    expect(pdbs.some((p) => p.spec.selector.matchLabels['app.kubernetes.io/name'] === 'gateway')).toBe(true);
  });

  test(title('routes /api, /healthz and /readyz to the gateway and / to the web client'), () => {
    const [ingress] = ofKind<Ingress>(objects, 'Ingress');
    const paths = ingress.spec.rules.flatMap((rule) => rule.http.paths);
    const backend = (path: string) => paths.find((p) => p.path === path)?.backend.service.name;
    expect(backend('/api')).toBe('gateway');
    expect(backend('/healthz')).toBe('gateway');
    expect(backend('/readyz')).toBe('gateway');
    expect(backend('/')).toBe('web');
    expect(paths.find((p) => p.path === '/api')?.pathType).toBe('Prefix');
    const gatewayService = ofKind<K8sObject & { spec: { ports: { name: string; port: number }[] } }>(objects, 'Service').find((s) => s.metadata.name === 'gateway');
    expect(gatewayService?.spec.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'http', port: GATEWAY_PORT })]));
  });

  test(title('migrates every service in a Job'), () => {
    const [job] = ofKind<Workload>(objects, 'Job');
    const commands = allContainers(job.spec.template.spec)
      .flatMap((c) => [...(c.command ?? []), ...(c.args ?? [])])
      .join('\n');
    for (const name of SERVICES) expect(commands).toContain(name);
    expect(commands).toContain('migrate');
  });

  test(title('runs NATS with JetStream and PostgreSQL on persistent volumes'), () => {
    const statefulSets = ofKind<Workload>(objects, 'StatefulSet');
    const nats = statefulSets.find((s) => s.metadata.name === 'nats');
    const postgres = statefulSets.find((s) => s.metadata.name === 'postgres');
    expect(nats?.spec.template.spec.containers[0].args).toContain('-js');
    expect(nats?.spec.volumeClaimTemplates?.length).toBe(1);
    expect(postgres?.spec.volumeClaimTemplates?.length).toBe(1);
    expect(ofKind<K8sObject>(objects, 'Service').map((s) => s.metadata.name)).toEqual(expect.arrayContaining(['postgres', 'nats', 'redis', 'gateway', 'web']));
  });

  test(title('holds no Secret value that looks real'), () => {
    const secrets = ofKind<K8sObject>(objects, 'Secret');
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      const values = {
        ...Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')])),
        ...(secret.stringData ?? {}),
      };
      for (const [key, value] of Object.entries(values)) {
        const where = `${secret.metadata.name}.${key}`;
        expect({ where, looksReal: looksReal(key, value) }).toEqual({ where, looksReal: false });
      }
    }
  });

  if (overlay === 'dev') {
    test(title('starts one replica of everything, on images tagged dev'), () => {
      for (const hpa of ofKind<Hpa>(objects, 'HorizontalPodAutoscaler')) expect(hpa.spec.minReplicas).toBe(1);
      for (const deployment of ofKind<Workload>(objects, 'Deployment').filter((d) => (APP_DEPLOYMENTS as readonly string[]).includes(d.metadata.name))) {
        expect(deployment.spec.template.spec.containers[0].image).toMatch(/:dev$/);
      }
    });
  } else {
    test(title('runs several replicas, with the public host behind TLS'), () => {
      const hpas = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler');
      for (const hpa of hpas) expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpas.find((h) => h.metadata.name === 'gateway')?.spec.maxReplicas).toBeGreaterThanOrEqual(10);
      const [ingress] = ofKind<Ingress>(objects, 'Ingress');
      expect(ingress.spec.rules[0].host).toBeTruthy();
      expect(ingress.spec.tls?.[0]?.hosts).toContain(ingress.spec.rules[0].host);
      for (const deployment of ofKind<Workload>(objects, 'Deployment')) {
        expect(deployment.spec.template.spec.containers[0].image).not.toMatch(/:(dev|latest)$/);
      }
    });
  }
});

describe('placeholder-detection helper', () => {
  it('accepts placeholders and plain names, and flags real-looking values', () => {
    expect(looksReal('POSTGRES_PASSWORD', 'CHANGE-ME')).toBe(false);
    expect(looksReal('DATABASE_URL', 'postgres://assistant:CHANGE-ME@postgres:5432/assistant')).toBe(false);
    expect(looksReal('POSTGRES_USER', 'assistant')).toBe(false);
    expect(looksReal('OPENAI_API_KEY', '')).toBe(false);
    expect(looksReal('POSTGRES_PASSWORD', 'hunter2hunter2')).toBe(true);
    expect(looksReal('DATABASE_URL', 'postgres://assistant:s3cr3t@db:5432/assistant')).toBe(true);
    expect(looksReal('NOTE', `sk-${'a'.repeat(40)}`)).toBe(true);
  });
});
