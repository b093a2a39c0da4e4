/**
 * The distributed-mode deployment files hold together: docker-compose.yml validates and has every
 * part, and the Kubernetes overlays render offline into what an operator would run: core objects
 * valid against the API schemas, custom resources (CloudNativePG, External Secrets, Prometheus
 * Operator) with the fields the setup relies on, probes, resources, security settings, disruption
 * budgets, default-deny network policies with each pod's allowed paths, a three-node JetStream
 * cluster with a replicated stream, PostgreSQL with backups, pinned images, zero-downtime rollouts
 * with migrations before the new pods, metrics with alerts, and no placeholder secret in prod.
 *
 * Needs no cluster and no Docker engine. The cases that call `docker-compose` (v1 validates
 * offline) or `kubectl` (its built-in kustomize) are skipped, with the reason in their name, when
 * the tool is not on PATH.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  allContainers,
  type CnpgCluster,
  connects,
  inCidr,
  type Container,
  type Endpoint,
  type Hpa,
  imageTag,
  type Ingress,
  isEmptySelector,
  type K8sObject,
  named,
  type NetworkPolicy,
  ofKind,
  type Pdb,
  pod,
  policiesFor,
  type PodSpec,
  probePort,
  render,
  resolvedArgs,
  root,
  selects,
  type Service,
  validateCore,
  type Validation,
  type Workload,
} from './k8s';

const SERVICES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'] as const;
const APP_DEPLOYMENTS = ['gateway', ...SERVICES, 'web'] as const;
const SERVICE_HEALTH_PORT = 9000;
const METRICS_PORT = 9464;
const GATEWAY_PORT = 8080;
/** The services that call something outside the cluster over HTTPS, and what. */
const CALLS_OUT: Record<string, string> = {
  auth: 'identity providers',
  chat: 'OpenAI',
  memory: 'OpenAI',
  tts: 'OpenAI',
  sms: 'Twilio',
  files: 'the object store',
  gateway: 'Google sign-in',
};
/** The custom resource types the overlays may contain (checked structurally, not by schema). */
const CUSTOM_KINDS = [
  'postgresql.cnpg.io/v1 Cluster',
  'postgresql.cnpg.io/v1 ScheduledBackup',
  'barmancloud.cnpg.io/v1 ObjectStore',
  'external-secrets.io/v1 ExternalSecret',
  'monitoring.coreos.com/v1 ServiceMonitor',
  'monitoring.coreos.com/v1 PodMonitor',
  'monitoring.coreos.com/v1 PrometheusRule',
];
/** The labels CloudNativePG puts on the pods of a Cluster (docs: labels_annotations). */
const cnpgPodLabels = (cluster: string): Record<string, string> => ({
  'cnpg.io/cluster': cluster,
  'cnpg.io/podRole': 'instance',
  'cnpg.io/instanceRole': 'primary',
  'app.kubernetes.io/name': 'postgresql',
  'app.kubernetes.io/component': 'database',
  'app.kubernetes.io/instance': cluster,
  'app.kubernetes.io/managed-by': 'cloudnative-pg',
});

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

function runsAsNonRoot(spec: PodSpec, container: Container): boolean {
  return (container.securityContext?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot) === true;
}

/**
 * True when a Secret value could be a real credential. Placeholders (CHANGE-ME), empty values and
 * plain identifiers under keys that are not secret by name (a user or database name) pass.
 */
function looksReal(key: string, value: string): boolean {
  const knownCredential = [
    /sk-[A-Za-z0-9_-]{20,}/,
    /\bAC[0-9a-f]{32}\b/,
    /\bAKIA[0-9A-Z]{16}\b/,
    /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
    /\bxox[bp]-/,
    /\bghp_[A-Za-z0-9]{20,}/,
  ];
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
    hasDockerCompose
      ? 'validates with `docker-compose config -q`'
      : 'validates with `docker-compose config -q` (skipped: docker-compose is not on PATH)',
    () => {
      expect(() =>
        execFileSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, stdio: 'pipe' }),
      ).not.toThrow();
    },
  );

  it('pins every third-party image to an exact version (or a digest): no moving tag but the digest-pinned Chainguard ones', () => {
    const images = Object.entries(services)
      .map(([name, service]) => [name, service.image ?? ''] as const)
      .filter(([, image]) => image && !image.includes('IMAGE_REPOSITORY'))
      .map(([name, image]) => [name, image.replace(/^\$\{[A-Z_]+:-(.*)\}$/, '$1')] as const);
    expect(images.map(([name]) => name)).toEqual(expect.arrayContaining(['postgres', 'nats', 'redis', 'minio', 'otel-collector']));
    for (const [name, image] of images) {
      const { tag, digest } = imageTag(image);
      const chainguard = image.startsWith('cgr.dev/chainguard/');
      // An exact version, or a tag naming one commit (`main-<40 hex digits>`: whisper.cpp's images), or a digest.
      const exact =
        digest !== undefined ||
        (tag !== undefined && ((/^v?\d+\.\d+(\.\d+)?([-.+]|$)/.test(tag) && !/^\d+$/.test(tag)) || /(^|-)[0-9a-f]{40}$/.test(tag)));
      // Chainguard publishes only `latest` without a subscription: deploy/pin-image-digests.sh pins it by digest.
      expect({ name, image, pinned: exact || chainguard }).toEqual({ name, image, pinned: true });
    }
    expect(services.postgres.image).toMatch(/^postgres:18\.\d+/);
    expect(services.nats.image).toMatch(/^nats:2\.\d+\.\d+-alpine/);
  });

  (hasKubectl ? it : it.skip)(
    'deploy/pin-image-digests.sh pins every third-party image of compose and of the prod overlay by digest (a fake registry client)',
    () => {
      const tmp = mkdtempSync(join(tmpdir(), 'pin-'));
      mkdirSync(join(tmp, 'deploy'));
      mkdirSync(join(tmp, 'bin'));
      cpSync(join(root, 'k8s'), join(tmp, 'k8s'), { recursive: true });
      cpSync(join(root, 'docker-compose.yml'), join(tmp, 'docker-compose.yml'));
      cpSync(join(root, 'deploy/pin-image-digests.sh'), join(tmp, 'deploy/pin-image-digests.sh'));
      writeFileSync(join(tmp, 'bin/crane'), '#!/bin/sh\necho "sha256:$(printf %s "$2" | sha256sum | cut -c1-64)"\n');
      chmodSync(join(tmp, 'bin/crane'), 0o755);
      const run = (...args: string[]) =>
        execFileSync('sh', [join(tmp, 'deploy/pin-image-digests.sh'), ...args], {
          env: { ...process.env, PATH: `${join(tmp, 'bin')}:${process.env.PATH}` },
          stdio: 'pipe',
        }).toString();
      expect(() => run('--check')).toThrow(); // nothing pinned yet: it names what lacks a digest
      run();
      run(); // again: the same pins, nothing added twice
      expect(() => run('--check')).not.toThrow();
      const pinned = readFileSync(join(tmp, 'docker-compose.yml'), 'utf8');
      expect(pinned).toMatch(/image: nats:2\.\d+\.\d+-alpine@sha256:[0-9a-f]{64}$/m);
      expect(pinned).toMatch(/MINIO_IMAGE:-cgr\.dev\/chainguard\/minio:latest@sha256:[0-9a-f]{64}\}/);
      const rendered = execFileSync('kubectl', ['kustomize', join(tmp, 'k8s/overlays/prod')]).toString();
      expect(rendered).toMatch(/image: nats:2\.\d+\.\d+-alpine@sha256:[0-9a-f]{64}/);
      expect(rendered).toMatch(/imageName: ghcr\.io\/cloudnative-pg\/postgresql:18\.\d+-minimal-trixie@sha256:[0-9a-f]{64}/);
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
  let text = '';
  let objects: K8sObject[] = [];
  let validation: Validation = { validated: [], unknown: [], errors: [] };
  let namespace = '';

  beforeAll(() => {
    if (!hasKubectl) return;
    ({ text, objects } = render(overlay));
    validation = validateCore(text);
    namespace = objects.find((o) => o.kind !== 'Namespace')?.metadata.namespace ?? '';
  });

  const deployments = () => ofKind<Workload>(objects, 'Deployment');
  const workloads = () => [...deployments(), ...ofKind<Workload>(objects, 'StatefulSet'), ...ofKind<Workload>(objects, 'Job')];
  const deployment = (name: string) => named<Workload>(objects, 'Deployment', name)!;
  const podOf = (workload: Workload): Endpoint => pod(workload.metadata.name, namespace, workload.spec.template.metadata?.labels ?? {});
  const policies = () => ofKind<NetworkPolicy>(objects, 'NetworkPolicy');
  const cluster = () => objects.find((o) => o.kind === 'Cluster' && o.apiVersion === 'postgresql.cnpg.io/v1') as CnpgCluster | undefined;
  /** The PostgreSQL pod: the in-cluster StatefulSet's, or a CloudNativePG instance. */
  const databasePod = (): Endpoint => {
    const statefulSet = named<Workload>(objects, 'StatefulSet', 'postgres');
    if (statefulSet) return podOf(statefulSet);
    const cnpg = cluster()!;
    return pod(`${cnpg.metadata.name}-1`, namespace, {
      ...cnpgPodLabels(cnpg.metadata.name),
      ...(cnpg.spec.inheritedMetadata?.labels ?? {}),
    });
  };
  const outside = {
    ingressController: pod('ingress-nginx-controller', 'ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' }),
    prometheus: pod('prometheus-0', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' }),
    dns: pod('coredns', 'kube-system', { 'k8s-app': 'kube-dns' }),
    collector: pod('otel-collector', 'observability', { 'app.kubernetes.io/name': 'opentelemetry-collector' }),
    cnpgOperator: pod('cnpg-controller-manager', 'cnpg-system', { 'app.kubernetes.io/name': 'cloudnative-pg' }),
    otherApp: pod('intruder', 'other-team', { 'app.kubernetes.io/name': 'intruder' }),
    publicAddress: { ip: '203.0.113.10' } as Endpoint,
    privateAddress: { ip: '10.20.30.40' } as Endpoint,
    metadataAddress: { ip: '169.254.169.254' } as Endpoint,
  };

  test(title('renders offline with kubectl kustomize, every object in the overlay namespace'), () => {
    expect(objects.length).toBeGreaterThan(0);
    const namespaced = objects.filter((o) => o.kind !== 'Namespace');
    const namespaces = new Set(namespaced.map((o) => o.metadata.namespace));
    expect(namespaces.size).toBe(1);
    expect(ofKind(objects, 'Namespace').map((n) => n.metadata.name)).toEqual([...namespaces]);
  });

  test(title('validates every core object against the Kubernetes API schemas'), () => {
    expect(validation.errors).toEqual([]);
    expect(validation.validated.length).toBeGreaterThan(40);
    // Anything the schemas do not know must be one of the custom resources checked below, so that
    // no core object escapes validation.
    for (const entry of validation.unknown) {
      expect({ entry, custom: CUSTOM_KINDS.some((kind) => entry.startsWith(`${kind}/`)) }).toEqual({ entry, custom: true });
    }
  });

  test(title('gives every custom resource its apiVersion, kind, name, namespace and a spec'), () => {
    const custom = objects.filter((o) => CUSTOM_KINDS.includes(`${o.apiVersion} ${o.kind}`));
    expect(custom.length).toBe(validation.unknown.length);
    for (const object of custom) {
      const where = `${object.kind}/${object.metadata?.name}`;
      expect({ where, name: typeof object.metadata?.name, namespace: object.metadata?.namespace, spec: typeof object.spec }).toEqual({
        where,
        name: 'string',
        namespace,
        spec: 'object',
      });
    }
  });

  test(title('has a Deployment for the gateway, each service and the web client'), () => {
    const names = deployments().map((d) => d.metadata.name);
    expect(names).toEqual(expect.arrayContaining([...APP_DEPLOYMENTS]));
  });

  test(title('probes readiness on /readyz and liveness on /healthz of the right port'), () => {
    for (const workload of deployments()) {
      const name = workload.metadata.name;
      for (const container of workload.spec.template.spec.containers) {
        expect({ name, readiness: container.readinessProbe !== undefined, liveness: container.livenessProbe !== undefined }).toEqual({
          name,
          readiness: true,
          liveness: true,
        });
      }
      if (!(APP_DEPLOYMENTS as readonly string[]).includes(name)) continue;
      const [container] = workload.spec.template.spec.containers;
      // The gateway's probe asks only for its own dependencies: one service down must not empty its Service.
      const readiness = name === 'gateway' ? '/readyz?scope=gateway' : '/readyz';
      expect({ name, readiness: container.readinessProbe?.httpGet?.path, liveness: container.livenessProbe?.httpGet?.path }).toEqual({
        name,
        readiness,
        liveness: '/healthz',
      });
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
    for (const workload of workloads()) {
      for (const container of allContainers(workload.spec.template.spec)) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        expect({ where, requests: Object.keys(container.resources?.requests ?? {}).sort() }).toEqual({
          where,
          requests: ['cpu', 'memory'],
        });
        expect({ where, limits: Object.keys(container.resources?.limits ?? {}).includes('memory') }).toEqual({ where, limits: true });
      }
    }
  });

  test(title('runs every pod as non-root, without privilege escalation or capabilities'), () => {
    for (const workload of workloads()) {
      const spec = workload.spec.template.spec;
      expect({ workload: workload.metadata.name, seccomp: spec.securityContext?.seccompProfile?.type }).toEqual({
        workload: workload.metadata.name,
        seccomp: 'RuntimeDefault',
      });
      for (const container of allContainers(spec)) {
        const where = `${workload.kind}/${workload.metadata.name}/${container.name}`;
        expect({ where, nonRoot: runsAsNonRoot(spec, container) }).toEqual({ where, nonRoot: true });
        expect({ where, escalation: container.securityContext?.allowPrivilegeEscalation }).toEqual({ where, escalation: false });
        expect({ where, drop: container.securityContext?.capabilities?.drop }).toEqual({ where, drop: ['ALL'] });
        expect({ where, readOnly: container.securityContext?.readOnlyRootFilesystem }).toEqual({ where, readOnly: true });
      }
    }
  });

  test(title('pins every image by an exact version or a digest, never latest or untagged'), () => {
    const images = workloads().flatMap((w) =>
      allContainers(w.spec.template.spec).map((c) => ({ where: `${w.kind}/${w.metadata.name}/${c.name}`, image: c.image })),
    );
    const cnpg = cluster();
    if (cnpg) images.push({ where: `Cluster/${cnpg.metadata.name}`, image: cnpg.spec.imageName });
    expect(images.length).toBeGreaterThan(10);
    for (const { where, image } of images) {
      const { tag, digest } = imageTag(image);
      const repository = image.split('@')[0].replace(/:[^/:]*$/, '');
      const ours = /(^|\/)assistant(-web)?$/.test(repository);
      // Third-party images carry their exact version (PostgreSQL's is major.minor, 18.6; the others
      // major.minor.patch); ours the release's (prod) or the locally built `dev` tag (dev).
      const version = /postgres(ql)?$/.test(repository) ? /^\d+\.\d+([-.]|$)/ : /^v?\d+\.\d+\.\d+([-.+]|$)/;
      const exact = digest !== undefined || (tag !== undefined && (version.test(tag) || (ours && overlay === 'dev' && tag === 'dev')));
      expect({ where, image, pinned: exact && tag !== 'latest' }).toEqual({ where, image, pinned: true });
    }
  });

  test(title('keeps a PodDisruptionBudget, allowing one pod down, on every Deployment and on NATS'), () => {
    const pdbs = ofKind<Pdb>(objects, 'PodDisruptionBudget');
    for (const workload of [...deployments(), named<Workload>(objects, 'StatefulSet', 'nats')!]) {
      const labels = workload.spec.template.metadata?.labels ?? {};
      const budgets = pdbs.filter((p) => selects(p.spec.selector, labels));
      const where = `${workload.kind}/${workload.metadata.name}`;
      expect({ where, budgets: budgets.length }).toEqual({ where, budgets: 1 });
      // maxUnavailable 1: a drain proceeds one pod at a time, even with a single replica (dev).
      expect({ where, maxUnavailable: budgets[0].spec.maxUnavailable }).toEqual({ where, maxUnavailable: 1 });
    }
  });

  describe('network policies', () => {
    test(title('deny all ingress and egress by default in the namespace'), () => {
      const denyAll = policies().filter((p) => isEmptySelector(p.spec.podSelector) && !p.spec.ingress && !p.spec.egress);
      expect(denyAll.map((p) => p.metadata.name)).toEqual(['default-deny']);
      expect([...(denyAll[0].spec.policyTypes ?? [])].sort()).toEqual(['Egress', 'Ingress']);
    });

    test(title('cover every pod with default-deny and a policy of its own'), () => {
      for (const workload of workloads()) {
        const target = podOf(workload);
        for (const direction of ['Ingress', 'Egress'] as const) {
          const selecting = policiesFor(policies(), target, direction);
          expect({ pod: workload.metadata.name, direction, denyAll: selecting.some((p) => p.metadata.name === 'default-deny') }).toEqual({
            pod: workload.metadata.name,
            direction,
            denyAll: true,
          });
        }
        const own = [...policiesFor(policies(), target, 'Ingress'), ...policiesFor(policies(), target, 'Egress')].filter(
          (p) => !isEmptySelector(p.spec.podSelector),
        );
        expect({ pod: workload.metadata.name, ownPolicy: own.length > 0 }).toEqual({ pod: workload.metadata.name, ownPolicy: true });
      }
    });

    test(title('let every pod resolve names, and nothing reach the cloud metadata address'), () => {
      for (const workload of workloads()) {
        const source = podOf(workload);
        expect({ pod: workload.metadata.name, dns: connects(policies(), source, outside.dns, 53, 'UDP') }).toEqual({
          pod: workload.metadata.name,
          dns: true,
        });
        expect({ pod: workload.metadata.name, metadata: connects(policies(), source, outside.metadataAddress, 80) }).toEqual({
          pod: workload.metadata.name,
          metadata: false,
        });
      }
    });

    test(title('let each service reach NATS, Redis, its database and the collector, and outside only what it calls'), () => {
      const nats = podOf(named<Workload>(objects, 'StatefulSet', 'nats')!);
      const redis = podOf(deployment('redis'));
      for (const name of SERVICES) {
        const source = podOf(deployment(name));
        const reach = {
          nats: connects(policies(), source, nats, 4222),
          redis: connects(policies(), source, redis, 6379),
          database: connects(policies(), source, databasePod(), 5432),
          collector: connects(policies(), source, outside.collector, 4318),
          publicHttps: connects(policies(), source, outside.publicAddress, 443),
          publicHttp: connects(policies(), source, outside.publicAddress, 80),
          privateHttps: connects(policies(), source, outside.privateAddress, 443),
          natsRoutes: connects(policies(), source, nats, 6222),
          otherService: connects(policies(), source, podOf(deployment(name === 'chat' ? 'memory' : 'chat')), SERVICE_HEALTH_PORT),
        };
        expect({ name, reach }).toEqual({
          name,
          reach: {
            nats: true,
            redis: true,
            database: true,
            collector: true,
            publicHttps: name in CALLS_OUT,
            publicHttp: false,
            privateHttps: false,
            natsRoutes: false,
            otherService: false,
          },
        });
      }
    });

    test(title('let the gateway reach the bus and the cache but no database; the web pods only the gateway'), () => {
      const gateway = podOf(deployment('gateway'));
      const web = podOf(deployment('web'));
      const nats = podOf(named<Workload>(objects, 'StatefulSet', 'nats')!);
      const redis = podOf(deployment('redis'));
      expect({
        natsFromGateway: connects(policies(), gateway, nats, 4222),
        redisFromGateway: connects(policies(), gateway, redis, 6379),
        databaseFromGateway: connects(policies(), gateway, databasePod(), 5432),
        googleFromGateway: connects(policies(), gateway, outside.publicAddress, 443),
        gatewayFromWeb: connects(policies(), web, gateway, GATEWAY_PORT),
        natsFromWeb: connects(policies(), web, nats, 4222),
        redisFromWeb: connects(policies(), web, redis, 6379),
        databaseFromWeb: connects(policies(), web, databasePod(), 5432),
        outsideFromWeb: connects(policies(), web, outside.publicAddress, 443),
      }).toEqual({
        natsFromGateway: true,
        redisFromGateway: true,
        databaseFromGateway: false,
        googleFromGateway: true,
        gatewayFromWeb: true,
        natsFromWeb: false,
        redisFromWeb: false,
        databaseFromWeb: false,
        outsideFromWeb: false,
      });
    });

    test(title('let the Ingress controller reach only the gateway and the web client, on their HTTP port'), () => {
      for (const workload of workloads()) {
        const target = podOf(workload);
        for (const container of workload.spec.template.spec.containers) {
          for (const port of container.ports ?? []) {
            const where = `${workload.metadata.name}:${port.containerPort}`;
            const expected = ['gateway', 'web'].includes(workload.metadata.name) && port.containerPort === GATEWAY_PORT;
            expect({ where, fromIngress: connects(policies(), outside.ingressController, target, port.containerPort) }).toEqual({
              where,
              fromIngress: expected,
            });
            expect({ where, fromOtherNamespace: connects(policies(), outside.otherApp, target, port.containerPort) }).toEqual({
              where,
              fromOtherNamespace: false,
            });
          }
        }
      }
      expect(connects(policies(), outside.ingressController, databasePod(), 5432)).toBe(false);
    });

    test(title('let Prometheus scrape the metrics ports and nothing else'), () => {
      for (const name of ['gateway', ...SERVICES]) {
        const target = podOf(deployment(name));
        expect({
          name,
          metrics: connects(policies(), outside.prometheus, target, METRICS_PORT),
          health: connects(policies(), outside.prometheus, target, SERVICE_HEALTH_PORT),
        }).toEqual({
          name,
          metrics: true,
          health: false,
        });
      }
      const nats = podOf(named<Workload>(objects, 'StatefulSet', 'nats')!);
      expect({
        exporter: connects(policies(), outside.prometheus, nats, 7777),
        client: connects(policies(), outside.prometheus, nats, 4222),
      }).toEqual({ exporter: true, client: false });
    });

    test(title('let the NATS nodes route to each other and the stream Job reach NATS'), () => {
      const nats = podOf(named<Workload>(objects, 'StatefulSet', 'nats')!);
      const job = podOf(named<Workload>(objects, 'Job', 'nats-streams')!);
      expect({
        routes: connects(policies(), nats, nats, 6222),
        jobToClientPort: connects(policies(), job, nats, 4222),
        jobToDatabase: connects(policies(), job, databasePod(), 5432),
        natsToOutside: connects(policies(), nats, outside.publicAddress, 443),
      }).toEqual({ routes: true, jobToClientPort: true, jobToDatabase: false, natsToOutside: false });
    });
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

  test(title('routes /api, /healthz and /readyz to the gateway and / to the web client'), () => {
    const [ingress] = ofKind<Ingress>(objects, 'Ingress');
    const paths = ingress.spec.rules.flatMap((rule) => rule.http.paths);
    const backend = (path: string) => paths.find((p) => p.path === path)?.backend.service.name;
    expect(backend('/api')).toBe('gateway');
    expect(backend('/healthz')).toBe('gateway');
    expect(backend('/readyz')).toBe('gateway');
    expect(backend('/')).toBe('web');
    expect(paths.find((p) => p.path === '/api')?.pathType).toBe('Prefix');
    const gatewayService = named<Service>(objects, 'Service', 'gateway');
    expect(gatewayService?.spec.ports).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'http', port: GATEWAY_PORT })]));
  });

  test(title('migrates each service in an init container, before its new version starts'), () => {
    for (const name of SERVICES) {
      const workload = deployment(name);
      const labels = workload.spec.template.metadata?.labels ?? {};
      const [app] = workload.spec.template.spec.containers;
      const migrate = workload.spec.template.spec.initContainers?.find((c) => c.name === 'migrate');
      expect({ name, migrate: migrate && resolvedArgs(migrate, labels), image: migrate?.image }).toEqual({
        name,
        migrate: [`services/${name}/dist/main.js`, 'migrate'],
        image: app.image,
      });
      // It connects to the same database as the service.
      const databaseUrl = (c: Container) => c.env?.find((e) => e.name === 'DATABASE_URL') ?? c.envFrom?.find((e) => e.secretRef)?.secretRef;
      expect({ name, database: databaseUrl(migrate!) }).toEqual({ name, database: databaseUrl(app) });
    }
    for (const name of ['gateway', 'web'])
      expect({ name, init: deployment(name).spec.template.spec.initContainers }).toEqual({ name, init: undefined });
    // The services never migrate on their own, and no separate migration Job races the rollout.
    const common = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('assistant-common-'));
    expect(common?.data?.MIGRATE_ON_BOOT).toBe('false');
    expect(ofKind<Workload>(objects, 'Job').map((j) => j.metadata.name)).toEqual(['nats-streams']);
  });

  test(title('rolls out with no downtime: surge one, none unavailable, readiness, a drain within the grace period'), () => {
    for (const name of APP_DEPLOYMENTS) {
      const workload = deployment(name);
      const spec = workload.spec.template.spec;
      const [container] = spec.containers;
      expect({ name, strategy: workload.spec.strategy }).toEqual({
        name,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      });
      expect({ name, ready: container.readinessProbe !== undefined, minReadySeconds: (workload.spec.minReadySeconds ?? 0) > 0 }).toEqual({
        name,
        ready: true,
        minReadySeconds: true,
      });
      // Reply streams drain longer (gateway, chat); the services' own drain is bounded by 30 s.
      const grace = name === 'gateway' || name === 'chat' ? 45 : 30;
      expect({ name, grace: spec.terminationGracePeriodSeconds }).toEqual({ name, grace });
      if (name === 'gateway' || name === 'web') {
        // Behind a Service: keep serving until the endpoint removal has reached the Ingress.
        const command = container.lifecycle?.preStop?.exec?.command ?? [];
        const sleep = command[0] === 'sleep' ? Number(command[1]) : (container.lifecycle?.preStop?.sleep?.seconds ?? 0);
        expect({ name, sleep: sleep >= 5 }).toEqual({ name, sleep: true });
        expect({ name, drainFits: sleep + (name === 'gateway' ? 30 : 0) <= grace }).toEqual({ name, drainFits: true });
      }
    }
  });

  describe('NATS', () => {
    test(title('runs three JetStream nodes in a cluster, with routes, volumes and one node per host'), () => {
      const statefulSet = named<Workload>(objects, 'StatefulSet', 'nats')!;
      expect(statefulSet.spec.replicas).toBe(3);
      expect(statefulSet.spec.podManagementPolicy).toBe('Parallel');
      expect(statefulSet.spec.volumeClaimTemplates?.length).toBe(1);
      const headless = named<Service>(objects, 'Service', statefulSet.spec.serviceName!)!;
      expect({ clusterIP: headless.spec.clusterIP, publishNotReady: headless.spec.publishNotReadyAddresses }).toEqual({
        clusterIP: 'None',
        publishNotReady: true,
      });
      const configName = statefulSet.spec.template.spec.volumes?.find((v) => v.configMap)?.configMap?.name;
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configName)?.data?.['nats.conf'] ?? '';
      expect(config).toMatch(/^jetstream \{[^}]*store_dir: \/data/m);
      expect(config).toMatch(/^cluster \{/m);
      for (const ordinal of [0, 1, 2]) expect(config).toContain(`nats://nats-${ordinal}.${headless.metadata.name}:6222`);
      expect(config).toMatch(/^server_name: \$SERVER_NAME$/m);
      const anti = statefulSet.spec.template.spec.affinity?.podAntiAffinity;
      const terms =
        overlay === 'prod'
          ? anti?.requiredDuringSchedulingIgnoredDuringExecution
          : anti?.preferredDuringSchedulingIgnoredDuringExecution?.map((t) => t.podAffinityTerm);
      expect(terms?.[0]?.topologyKey).toBe('kubernetes.io/hostname');
      expect(selects(terms?.[0]?.labelSelector, statefulSet.spec.template.metadata?.labels ?? {})).toBe(true);
      // Clients go through the ClusterIP Service on the client port.
      const common = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('assistant-common-'));
      expect(common?.data?.NATS_URL).toBe('nats://nats:4222');
      expect(named<Service>(objects, 'Service', 'nats')?.spec.ports).toEqual([expect.objectContaining({ port: 4222 })]);
    });

    test(title('replicates the EVENTS stream on the three nodes (R3)'), () => {
      const common = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('assistant-common-'));
      expect(common?.data?.JETSTREAM_REPLICAS).toBe('3');
      const job = named<Workload>(objects, 'Job', 'nats-streams')!;
      const [container] = job.spec.template.spec.containers;
      const script = [...(container.command ?? []), ...(container.args ?? [])].join('\n');
      expect(script).toContain('JETSTREAM_REPLICAS');
      expect(script).toMatch(/nats stream edit "\$stream" --replicas "\$replicas"/);
      expect(script).toMatch(/nats stream add "\$stream" --subjects "\$subjects" --storage file/);
      expect(script).toContain('stream=EVENTS');
      expect(container.envFrom?.[0]?.configMapRef?.name).toBe(common?.metadata.name);
    });
  });

  describe('NATS storage', () => {
    const bytes = (size: string) => {
      const match = /^(\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti|K|M|G|T|KB|MB|GB|TB)?$/.exec(size.trim());
      if (!match) throw new Error(`not a size: ${size}`);
      const units: Record<string, number> = {
        K: 1e3,
        M: 1e6,
        G: 1e9,
        T: 1e12,
        KB: 1e3,
        MB: 1e6,
        GB: 1e9,
        TB: 1e12,
        Ki: 1024,
        Mi: 1024 ** 2,
        Gi: 1024 ** 3,
        Ti: 1024 ** 4,
      };
      return Number(match[1]) * (match[2] ? units[match[2]] : 1);
    };

    test(title("keeps JetStream's file store below the volume, and the EVENTS stream's limit below the file store"), () => {
      const statefulSet = named<Workload>(objects, 'StatefulSet', 'nats')!;
      const [container] = statefulSet.spec.template.spec.containers;
      const configName = statefulSet.spec.template.spec.volumes?.find((v) => v.configMap)?.configMap?.name;
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === configName)?.data?.['nats.conf'] ?? '';
      // nats.conf reads the limit from the environment, set beside the volume it must fit in.
      expect(config).toMatch(/^\s*max_file_store: \$JS_MAX_FILE_STORE$/m);
      const fileStore = container.env?.find((e) => e.name === 'JS_MAX_FILE_STORE')?.value ?? '';
      const volume = (statefulSet.spec.volumeClaimTemplates?.[0] as { spec: { resources: { requests: { storage: string } } } }).spec
        .resources.requests.storage;
      const common = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('assistant-common-'));
      const streamMax = Number(common?.data?.EVENT_STREAM_MAX_BYTES);
      expect({ volume, fileStore }).toEqual(
        overlay === 'prod' ? { volume: '20Gi', fileStore: '18GB' } : { volume: '2Gi', fileStore: '1600MB' },
      );
      expect(bytes(fileStore)).toBeLessThan(bytes(volume) * 0.95);
      expect(streamMax).toBeGreaterThan(0);
      expect(streamMax).toBeLessThan(bytes(fileStore) * 0.9);
      expect(Number(common?.data?.EVENT_RETENTION_DAYS)).toBeGreaterThanOrEqual(1);
    });

    test(title('the nats-streams Job gives the stream the same limits as the services: max_age, max_bytes, discard new'), () => {
      const job = named<Workload>(objects, 'Job', 'nats-streams')!;
      const [container] = job.spec.template.spec.containers;
      const script = [...(container.command ?? []), ...(container.args ?? [])].join('\n');
      expect(script).toMatch(/--max-bytes "\$max_bytes"/);
      expect(script).toMatch(/--max-age "\$max_age"/);
      expect(script).toContain('--discard new');
      expect(script).not.toContain('--discard old');
      expect(script).toContain('EVENT_STREAM_MAX_BYTES');
      expect(script).toContain('EVENT_RETENTION_DAYS');
    });
  });

  test(title('keeps Redis a cache: no persistence, nothing on a volume'), () => {
    const redis = deployment('redis');
    const [container] = redis.spec.template.spec.containers;
    expect(container.args?.join(' ')).toMatch(/--save\s+--appendonly no/);
    expect(redis.spec.template.spec.volumes?.every((v) => (v as { emptyDir?: unknown }).emptyDir !== undefined)).toBe(true);
  });

  if (overlay === 'dev') {
    test(title('starts one replica of everything, on images tagged dev, with one in-cluster PostgreSQL'), () => {
      for (const hpa of ofKind<Hpa>(objects, 'HorizontalPodAutoscaler')) expect(hpa.spec.minReplicas).toBe(1);
      for (const workload of deployments().filter((d) => (APP_DEPLOYMENTS as readonly string[]).includes(d.metadata.name))) {
        expect(workload.spec.template.spec.containers[0].image).toMatch(/:dev$/);
      }
      const postgres = named<Workload>(objects, 'StatefulSet', 'postgres');
      expect(postgres?.spec.volumeClaimTemplates?.length).toBe(1);
      expect(cluster()).toBeUndefined();
    });

    test(title('holds only placeholder Secret values'), () => {
      const secrets = ofKind<K8sObject>(objects, 'Secret');
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) {
        const values = {
          ...Object.fromEntries(
            Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]),
          ),
          ...(secret.stringData ?? {}),
        };
        for (const [key, value] of Object.entries(values)) {
          const where = `${secret.metadata.name}.${key}`;
          expect({ where, looksReal: looksReal(key, value) }).toEqual({ where, looksReal: false });
        }
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
      for (const workload of deployments()) expect(workload.spec.template.spec.containers[0].image).not.toMatch(/:(dev|latest)$/);
    });

    test(title('ships no Secret and no CHANGE-ME: every Secret a pod reads comes from an ExternalSecret or CloudNativePG'), () => {
      expect(text).not.toContain('CHANGE-ME');
      expect(ofKind(objects, 'Secret')).toEqual([]);
      interface ExternalSecret extends K8sObject {
        spec: { secretStoreRef: { kind: string; name: string }; target?: { name?: string }; data?: unknown[]; dataFrom?: unknown[] };
      }
      const externalSecrets = ofKind<ExternalSecret>(objects, 'ExternalSecret');
      for (const es of externalSecrets) {
        expect({
          name: es.metadata.name,
          apiVersion: es.apiVersion,
          store: es.spec.secretStoreRef.kind,
          storeName: typeof es.spec.secretStoreRef.name,
        }).toEqual({
          name: es.metadata.name,
          apiVersion: 'external-secrets.io/v1',
          store: 'ClusterSecretStore',
          storeName: 'string',
        });
        expect((es.spec.data ?? []).length + (es.spec.dataFrom ?? []).length).toBeGreaterThan(0);
      }
      const provided = new Set([
        ...externalSecrets.map((es) => es.spec.target?.name ?? es.metadata.name),
        `${cluster()!.metadata.name}-app`,
      ]);
      const referenced = new Set<string>();
      for (const workload of workloads()) {
        const spec = workload.spec.template.spec;
        for (const volume of spec.volumes ?? []) if (volume.secret) referenced.add(volume.secret.secretName);
        for (const container of allContainers(spec)) {
          for (const source of container.envFrom ?? []) if (source.secretRef) referenced.add(source.secretRef.name);
          for (const variable of container.env ?? [])
            if (variable.valueFrom?.secretKeyRef) referenced.add(variable.valueFrom.secretKeyRef.name);
        }
      }
      const store = named<K8sObject & { spec: { configuration: { s3Credentials?: Record<string, { name: string }> } } }>(
        objects,
        'ObjectStore',
        'postgres-backups',
      );
      for (const ref of Object.values(store?.spec.configuration.s3Credentials ?? {})) referenced.add(ref.name);
      expect(referenced.size).toBeGreaterThan(2);
      for (const name of referenced) expect({ name, provided: provided.has(name) }).toEqual({ name, provided: true });
      // REDIS_URL is built from the one Redis password.
      const app = externalSecrets.find((es) => es.metadata.name === 'assistant-app') as ExternalSecret & {
        spec: { target: { template: { data: Record<string, string> } } };
      };
      expect(app.spec.target.template.data.REDIS_URL).toContain('.REDIS_PASSWORD');
    });

    test(title('runs PostgreSQL through CloudNativePG: three instances, WAL archiving and a daily backup'), () => {
      expect(named(objects, 'StatefulSet', 'postgres')).toBeUndefined();
      const cnpg = cluster()!;
      expect(cnpg.spec.instances).toBeGreaterThanOrEqual(3);
      expect(cnpg.spec.bootstrap.initdb).toMatchObject({ database: 'assistant', owner: 'assistant' });
      expect(cnpg.spec.affinity).toMatchObject({ enablePodAntiAffinity: true, podAntiAffinityType: 'required' });
      const plugin = cnpg.spec.plugins?.find((p) => p.name === 'barman-cloud.cloudnative-pg.io');
      expect(plugin?.isWALArchiver).toBe(true);
      const store = named<K8sObject & { spec: { retentionPolicy?: string; configuration: { destinationPath: string } } }>(
        objects,
        'ObjectStore',
        plugin!.parameters!.barmanObjectName,
      );
      expect(store?.apiVersion).toBe('barmancloud.cnpg.io/v1');
      expect(store?.spec.configuration.destinationPath).toMatch(/^(s3|gs|https):\/\//);
      expect(store?.spec.retentionPolicy).toMatch(/^\d+[dwm]$/);
      const backups = ofKind<
        K8sObject & { spec: { cluster: { name: string }; method: string; schedule: string; pluginConfiguration?: { name: string } } }
      >(objects, 'ScheduledBackup');
      const daily = backups.find((b) => b.spec.cluster.name === cnpg.metadata.name);
      expect(daily?.spec).toMatchObject({ method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } });
      // CloudNativePG schedules have a seconds field: six fields.
      expect(daily?.spec.schedule.trim().split(/\s+/)).toHaveLength(6);
      // The services read DATABASE_URL from the Secret the operator makes, in both containers.
      for (const name of SERVICES) {
        for (const container of allContainers(deployment(name).spec.template.spec)) {
          const variable = container.env?.find((e) => e.name === 'DATABASE_URL');
          expect({ where: `${name}/${container.name}`, ref: variable?.valueFrom?.secretKeyRef }).toEqual({
            where: `${name}/${container.name}`,
            ref: { name: `${cnpg.metadata.name}-app`, key: 'uri' },
          });
        }
      }
      // The operator and the other instances reach the instances; nothing else outside does.
      const instance = databasePod();
      expect({
        operator: connects(policies(), outside.cnpgOperator, instance, 8000),
        replication: connects(policies(), instance, instance, 5432),
        archive: connects(policies(), instance, outside.publicAddress, 443),
        metrics: connects(policies(), outside.prometheus, instance, 9187),
        otherNamespace: connects(policies(), outside.otherApp, instance, 5432),
      }).toEqual({ operator: true, replication: true, archive: true, metrics: true, otherNamespace: false });
    });

    test(title('exposes metrics to Prometheus: a ServiceMonitor over every metrics port, NATS and PostgreSQL monitors'), () => {
      interface ServiceMonitor extends K8sObject {
        spec: { jobLabel?: string; selector: { matchLabels: Record<string, string> }; endpoints: { port: string; path?: string }[] };
      }
      interface PodMonitor extends K8sObject {
        spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string }[] };
      }
      const [monitor] = ofKind<ServiceMonitor>(objects, 'ServiceMonitor');
      expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1');
      const endpoint = monitor.spec.endpoints[0];
      expect(endpoint.path ?? '/metrics').toBe('/metrics');
      const services = ofKind<Service>(objects, 'Service').filter((s) => selects(monitor.spec.selector, s.metadata.labels ?? {}));
      for (const name of ['gateway', ...SERVICES]) {
        const workload = deployment(name);
        const labels = workload.spec.template.metadata?.labels ?? {};
        const [container] = workload.spec.template.spec.containers;
        const service = services.find((s) => s.spec.selector && selects({ matchLabels: s.spec.selector }, labels));
        const port = service?.spec.ports.find((p) => p.name === endpoint.port);
        const containerPort = container.ports?.find(
          (p) => p.name === port?.targetPort || p.containerPort === port?.targetPort,
        )?.containerPort;
        const variable = container.env?.find((e) => e.name === 'METRICS_PORT')?.value;
        expect({ name, containerPort, variable }).toEqual({ name, containerPort: METRICS_PORT, variable: String(METRICS_PORT) });
        // `job` is the Deployment's name: the alerts select by it.
        expect(service?.metadata.labels?.[monitor.spec.jobLabel!]).toBe(name);
      }
      const podMonitors = ofKind<PodMonitor>(objects, 'PodMonitor');
      const nats = named<Workload>(objects, 'StatefulSet', 'nats')!;
      const natsMonitor = podMonitors.find((m) => selects(m.spec.selector, nats.spec.template.metadata?.labels ?? {}));
      const exporterPorts = nats.spec.template.spec.containers.flatMap((c) => c.ports ?? []).map((p) => p.name);
      expect(exporterPorts).toContain(natsMonitor?.spec.podMetricsEndpoints[0].port);
      const instance = databasePod();
      expect(podMonitors.some((m) => 'labels' in instance && selects(m.spec.selector, instance.labels))).toBe(true);
    });

    test(title('alerts on 5xx rate, bus RPC p99, outbox lag, consumer lag and pods not ready'), () => {
      interface Rule {
        alert?: string;
        expr: string;
        for?: string;
        labels?: Record<string, string>;
        annotations?: Record<string, string>;
      }
      const rules = ofKind<K8sObject & { spec: { groups: { name: string; rules: Rule[] }[] } }>(objects, 'PrometheusRule').flatMap((r) =>
        r.spec.groups.flatMap((g) => g.rules),
      );
      const alert = (name: string) => rules.find((r) => r.alert === name);
      const expected: Record<string, RegExp> = {
        AssistantHTTP5xxRateHigh: /http_server_request_duration_seconds_count\{[^}]*http_response_status_code=~"5\.\."/,
        AssistantBusRPCLatencyHigh: /histogram_quantile\(0\.99,[\s\S]*assistant_bus_rpc_duration_seconds_bucket/,
        AssistantOutboxLagHigh: /assistant_outbox_lag_seconds/,
        AssistantJetStreamConsumerLagHigh: /nats_consumer_num_pending\{stream_name=~"EVENTS/,
        AssistantPodsNotReady: /kube_deployment_status_replicas_unavailable/,
      };
      for (const [name, pattern] of Object.entries(expected))
        expect({ name, expr: alert(name)?.expr }).toEqual({ name, expr: expect.stringMatching(pattern) });
      const readme = readFileSync(join(root, 'k8s/README.md'), 'utf8');
      for (const rule of rules.filter((r) => r.alert)) {
        const name = rule.alert!;
        expect({ name, for: rule.for, severity: rule.labels?.severity, summary: typeof rule.annotations?.summary }).toEqual({
          name,
          for: expect.stringMatching(/^\d+m$/),
          severity: expect.stringMatching(/^(warning|critical)$/),
          summary: 'string',
        });
        // Each alert's runbook is a section of k8s/README.md.
        expect({ name, runbook: rule.annotations?.runbook }).toEqual({ name, runbook: `k8s/README.md#${name.toLowerCase()}` });
        expect({ name, documented: new RegExp(`^#+ ${name}$`, 'm').test(readme) }).toEqual({ name, documented: true });
      }
    });

    test(title('scales chat on its active reply streams as well as on CPU'), () => {
      const hpa = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === 'chat')!;
      const types = hpa.spec.metrics?.map((m) => m.type);
      expect(types).toEqual(['Resource', 'Pods']);
      expect(hpa.spec.metrics?.[1].pods).toEqual({
        metric: { name: 'assistant_active_reply_streams' },
        target: { type: 'AverageValue', averageValue: expect.stringMatching(/^\d+$/) },
      });
      // prometheus-adapter (values shipped beside the component) serves that metric.
      const adapter = parse(readFileSync(join(root, 'k8s/components/monitoring/prometheus-adapter-values.yaml'), 'utf8')) as {
        rules: { custom: { seriesQuery: string; name: { as: string } }[] };
      };
      expect(adapter.rules.custom.map((r) => r.name.as)).toContain('assistant_active_reply_streams');
    });
  }
});

describe('manifest helpers', () => {
  const policy = (name: string, spec: NetworkPolicy['spec']): NetworkPolicy => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: 'ns' },
    spec,
  });
  const a = pod('a', 'ns', { app: 'a' });
  const b = pod('b', 'ns', { app: 'b', tier: 'db' });
  const denyAll = policy('deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });

  it('needs both the egress of the source and the ingress of the destination', () => {
    const egress = policy('a-out', {
      podSelector: { matchLabels: { app: 'a' } },
      policyTypes: ['Egress'],
      egress: [{ to: [{ podSelector: { matchLabels: { app: 'b' } } }], ports: [{ port: 5432 }] }],
    });
    const ingress = policy('b-in', {
      podSelector: { matchLabels: { app: 'b' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { app: 'a' } } }], ports: [{ port: 5432 }] }],
    });
    expect(connects([], a, b, 5432)).toBe(true);
    expect(connects([denyAll], a, b, 5432)).toBe(false);
    expect(connects([denyAll, egress], a, b, 5432)).toBe(false);
    expect(connects([denyAll, egress, ingress], a, b, 5432)).toBe(true);
    expect(connects([denyAll, egress, ingress], a, b, 5433)).toBe(false);
    expect(connects([denyAll, egress, ingress], a, b, 5432, 'UDP')).toBe(false);
    expect(connects([denyAll, egress, ingress], b, a, 5432)).toBe(false);
    // A pod of the same labels in another namespace is not a peer without a namespaceSelector.
    expect(connects([denyAll, egress, ingress], pod('a', 'elsewhere', { app: 'a' }), b, 5432)).toBe(false);
  });

  it('reads ipBlocks with their exceptions, and namespace selectors', () => {
    const out = policy('out', {
      podSelector: {},
      policyTypes: ['Egress'],
      egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '169.254.0.0/16'] } }], ports: [{ port: 443 }] }],
    });
    expect(connects([out], a, { ip: '203.0.113.10' }, 443)).toBe(true);
    expect(connects([out], a, { ip: '10.1.2.3' }, 443)).toBe(false);
    expect(connects([out], a, { ip: '169.254.169.254' }, 443)).toBe(false);
    expect(connects([out], a, b, 443)).toBe(false);
    const fromMonitoring = policy('in', {
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] }],
    });
    expect(connects([fromMonitoring], pod('p', 'monitoring', {}), a, 9464)).toBe(true);
    expect(connects([fromMonitoring], pod('p', 'other', {}), a, 9464)).toBe(false);
    expect(inCidr('10.255.0.1', '10.0.0.0/8')).toBe(true);
    expect(inCidr('11.0.0.1', '10.0.0.0/8')).toBe(false);
    expect(inCidr('not-an-ip', '0.0.0.0/0')).toBe(false);
  });

  it('matches label selectors with expressions', () => {
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['db'] }] }, { tier: 'db' })).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['db'] }] }, {})).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }, {})).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, { tier: '' })).toBe(false);
    expect(selects({ matchLabels: { app: 'a' } }, { app: 'a', other: 'x' })).toBe(true);
    expect(selects({}, {})).toBe(true);
  });

  it('tells pinned images from moving ones, and resolves $(VAR) from pod labels', () => {
    expect(imageTag('nats:2.14.2-alpine')).toEqual({ tag: '2.14.2-alpine', digest: undefined });
    expect(imageTag('registry:5000/team/assistant')).toEqual({ tag: undefined, digest: undefined });
    expect(imageTag('registry:5000/assistant:0.1.0@sha256:abc')).toEqual({ tag: '0.1.0', digest: 'sha256:abc' });
    expect(imageTag('redis@sha256:abc')).toEqual({ tag: undefined, digest: 'sha256:abc' });
    const container: Container = {
      name: 'migrate',
      image: 'assistant',
      args: ['services/$(SERVICE_NAME)/dist/main.js', 'migrate', '$(UNKNOWN)'],
      env: [{ name: 'SERVICE_NAME', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" } } }],
    };
    expect(resolvedArgs(container, { 'app.kubernetes.io/name': 'chat' })).toEqual(['services/chat/dist/main.js', 'migrate', '$(UNKNOWN)']);
  });
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
