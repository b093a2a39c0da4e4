/**
 * Reading rendered Kubernetes manifests in tests: the object shapes the manifest suite looks at,
 * rendering an overlay with `kubectl kustomize`, schema validation of the core types (through
 * validate-manifests.mjs and kubernetes-models), label selectors, and a small NetworkPolicy
 * evaluator that answers "may this pod open a connection to that one on this port?" the way the
 * API defines it (a connection needs the source's egress and the destination's ingress; a pod no
 * policy of a direction selects is open in that direction).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const root = join(__dirname, '../..');

// --- Objects, as far as the checks read them --------------------------------------------------

export type Labels = Record<string, string>;

export interface Metadata {
  name: string;
  namespace?: string;
  labels?: Labels;
  annotations?: Record<string, string>;
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
  exec?: { command: string[] };
  tcpSocket?: { port: number | string };
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type: string };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    fieldRef?: { fieldPath: string };
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: SecurityContext;
  terminationGracePeriodSeconds?: number;
  affinity?: {
    podAntiAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey: string; labelSelector: Selector }[];
      preferredDuringSchedulingIgnoredDuringExecution?: {
        weight: number;
        podAffinityTerm: { topologyKey: string; labelSelector: Selector };
      }[];
    };
  };
  volumes?: { name: string; secret?: { secretName: string }; configMap?: { name: string } }[];
}

export interface PodTemplate {
  metadata?: { labels?: Labels };
  spec: PodSpec;
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export interface Workload extends K8sObject {
  spec: {
    replicas?: number;
    serviceName?: string;
    podManagementPolicy?: string;
    minReadySeconds?: number;
    strategy?: { type: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
    selector?: Selector;
    template: PodTemplate;
    volumeClaimTemplates?: unknown[];
  };
}

export interface Hpa extends K8sObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas: number;
    metrics?: {
      type: string;
      resource?: { name: string; target: { type: string; averageUtilization?: number } };
      pods?: { metric: { name: string }; target: { type: string; averageValue?: string } };
    }[];
  };
}

export interface Service extends K8sObject {
  spec: {
    clusterIP?: string;
    publishNotReadyAddresses?: boolean;
    selector?: Labels;
    ports: { name?: string; port: number; targetPort?: number | string }[];
  };
}

export interface Ingress extends K8sObject {
  spec: {
    tls?: { hosts?: string[]; secretName?: string }[];
    rules: {
      host?: string;
      http: {
        paths: { path: string; pathType: string; backend: { service: { name: string; port: { name?: string; number?: number } } } }[];
      };
    }[];
  };
}

/** A CloudNativePG Cluster, as far as the checks read it. */
export interface CnpgCluster extends K8sObject {
  spec: {
    instances: number;
    imageName: string;
    bootstrap: { initdb?: { database?: string; owner?: string } };
    affinity?: { enablePodAntiAffinity?: boolean; podAntiAffinityType?: string; topologyKey?: string };
    inheritedMetadata?: { labels?: Labels };
    plugins?: { name: string; isWALArchiver?: boolean; parameters?: Record<string, string> }[];
  };
}

export interface Pdb extends K8sObject {
  spec: { selector: Selector; maxUnavailable?: number | string; minAvailable?: number | string };
}

// --- Rendering and validation ---------------------------------------------------------------------

export interface Render {
  text: string;
  objects: K8sObject[];
}

export function render(overlay: string): Render {
  const text = execFileSync('kubectl', ['kustomize', `k8s/overlays/${overlay}`], { cwd: root, encoding: 'utf8' });
  const objects = parseAllDocuments(text).map((document) => {
    if (document.errors.length) throw new Error(`k8s/overlays/${overlay}: ${document.errors[0].message}`);
    return document.toJS() as K8sObject;
  });
  return { text, objects };
}

export interface Validation {
  /** kind/name of each object validated against its API schema. */
  validated: string[];
  /** `apiVersion kind/name` of each object of a type the schemas do not know (custom resources). */
  unknown: string[];
  errors: string[];
}

/** Validates the core objects of a render against the Kubernetes API schemas (kubernetes-models). */
export function validateCore(text: string): Validation {
  const output = execFileSync(process.execPath, [join(__dirname, 'validate-manifests.mjs')], { cwd: root, input: text, encoding: 'utf8' });
  return JSON.parse(output) as Validation;
}

export const ofKind = <T extends K8sObject>(objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind) as T[];

export const named = <T extends K8sObject>(objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name) as T | undefined;

export function allContainers(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...spec.containers];
}

/** The port number a probe targets, resolving a named port against the container's ports. */
export function probePort(container: Container, probe: Probe | undefined): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** A container's command line with Kubernetes' $(VAR) references resolved from its env. */
export function resolvedArgs(container: Container, podLabels: Labels): string[] {
  const values = new Map<string, string>();
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) values.set(variable.name, variable.value);
    const label = variable.valueFrom?.fieldRef?.fieldPath.match(/^metadata\.labels\['(.+)'\]$/)?.[1];
    if (label !== undefined && podLabels[label] !== undefined) values.set(variable.name, podLabels[label]);
  }
  return [...(container.command ?? []), ...(container.args ?? [])].map((arg) =>
    arg.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => values.get(name) ?? whole),
  );
}

/** `repo[:tag][@digest]`: pinned when it carries a digest, or a tag other than `latest`. */
export function imageTag(image: string): { tag?: string; digest?: string } {
  const [withoutDigest, digest] = image.split('@');
  const lastPart = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  const colon = lastPart.indexOf(':');
  return { tag: colon === -1 ? undefined : lastPart.slice(colon + 1), digest };
}

// --- Label selectors --------------------------------------------------------------------------

export interface Selector {
  matchLabels?: Labels;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** Kubernetes label selector semantics: every term must hold; an empty selector selects everything. */
export function selects(selector: Selector | undefined, labels: Labels): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    if (operator === 'In' && !(has && values.includes(labels[key]))) return false;
    if (operator === 'NotIn' && has && values.includes(labels[key])) return false;
    if (operator === 'Exists' && !has) return false;
    if (operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

export const isEmptySelector = (selector: Selector | undefined) =>
  !selector || (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0);

// --- NetworkPolicy evaluation ---------------------------------------------------------------

interface Peer {
  podSelector?: Selector;
  namespaceSelector?: Selector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyRule {
  from?: Peer[];
  to?: Peer[];
  ports?: { port?: number | string; endPort?: number; protocol?: string }[];
}

export interface NetworkPolicy extends K8sObject {
  spec: { podSelector: Selector; policyTypes?: ('Ingress' | 'Egress')[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
}

/** A pod (its namespace and labels) or an address outside the cluster. */
export type Endpoint = { pod: string; namespace: string; labels: Labels } | { ip: string };

export const pod = (name: string, namespace: string, labels: Labels): Endpoint => ({ pod: name, namespace, labels });

function ipv4(address: string): number | undefined {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

/** IPv4 only (the checks use IPv4 addresses; an IPv6 block never contains one). */
export function inCidr(address: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const ip = ipv4(address);
  const network = ipv4(base);
  if (ip === undefined || network === undefined) return false;
  const size = Number(bits);
  const mask = size === 0 ? 0 : (~0 << (32 - size)) >>> 0;
  return (ip & mask) >>> 0 === (network & mask) >>> 0;
}

function peerMatches(peer: Peer, policyNamespace: string, other: Endpoint): boolean {
  if (peer.ipBlock) {
    return 'ip' in other && inCidr(other.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((cidr) => inCidr(other.ip, cidr));
  }
  if (!('pod' in other)) return false;
  if (peer.namespaceSelector) {
    if (!selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': other.namespace })) return false;
  } else if (other.namespace !== policyNamespace) {
    return false;
  }
  return selects(peer.podSelector, other.labels);
}

function portMatches(rule: PolicyRule, port: number, protocol: string): boolean {
  if (!rule.ports || rule.ports.length === 0) return true;
  return rule.ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port !== 'number')
      throw new Error(`named port ${p.port} in a NetworkPolicy: use numbers, the evaluator does not resolve names`);
    return p.endPort === undefined ? p.port === port : port >= p.port && port <= p.endPort;
  });
}

function policyTypes(policy: NetworkPolicy): string[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

/** The policies that select a pod in a direction. */
export function policiesFor(policies: NetworkPolicy[], target: Endpoint, direction: 'Ingress' | 'Egress'): NetworkPolicy[] {
  if (!('pod' in target)) return [];
  return policies.filter(
    (p) => p.metadata.namespace === target.namespace && selects(p.spec.podSelector, target.labels) && policyTypes(p).includes(direction),
  );
}

function allowedOneWay(
  policies: NetworkPolicy[],
  self: Endpoint,
  direction: 'Ingress' | 'Egress',
  other: Endpoint,
  port: number,
  protocol: string,
): boolean {
  const selecting = policiesFor(policies, self, direction);
  if (selecting.length === 0) return true;
  return selecting.some((policy) =>
    ((direction === 'Ingress' ? policy.spec.ingress : policy.spec.egress) ?? []).some((rule) => {
      const peers = direction === 'Ingress' ? rule.from : rule.to;
      const peerOk = !peers || peers.length === 0 || peers.some((peer) => peerMatches(peer, policy.metadata.namespace ?? '', other));
      return peerOk && portMatches(rule, port, protocol);
    }),
  );
}

/** May `source` open a connection to `destination` on this port? */
export function connects(policies: NetworkPolicy[], source: Endpoint, destination: Endpoint, port: number, protocol = 'TCP'): boolean {
  return (
    allowedOneWay(policies, source, 'Egress', destination, port, protocol) &&
    allowedOneWay(policies, destination, 'Ingress', source, port, protocol)
  );
}
