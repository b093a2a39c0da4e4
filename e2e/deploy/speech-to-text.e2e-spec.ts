/**
 * Speech-to-text that deploys with the product (issue 24): an optional whisper server beside the
 * services, in docker-compose.yml behind the `stt` profile and in Kubernetes as the component
 * k8s/components/speech-to-text, at an exact image version; the tts service looks for it at the
 * address both give it. Offline, like the other manifests: `docker-compose config` and `kubectl
 * kustomize` (skipped, saying so, when not on PATH), the API schemas through kubernetes-models.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import {
  connects,
  imageTag,
  type K8sObject,
  named,
  type NetworkPolicy,
  ofKind,
  pod,
  render,
  root,
  validateCore,
  type Workload,
} from './k8s';

const onPath = (command: string) => {
  try {
    execFileSync('which', [command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasDockerCompose = onPath('docker-compose');
const hasKubectl = onPath('kubectl');
const STT_URL = 'http://stt:8080/v1';
/** An exact image: a tag naming a commit (40 hex digits) or a version, or a digest; never latest or a moving branch. */
const EXACT_IMAGE = /:(main-[0-9a-f]{40}|v?\d+\.\d+\.\d+[\w.-]*)$|@sha256:[0-9a-f]{64}$/;

interface ComposeService {
  image?: string;
  profiles?: string[];
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
}

describe('docker-compose.yml: the optional speech-to-text server', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const stt = compose.services.stt!;

  it('is a whisper server behind the `stt` profile, at an exact version, answering OpenAI’s transcription path', () => {
    expect(stt.profiles).toEqual(['stt']);
    const image = stt.image!.replace(/^\$\{STT_IMAGE:-(.*)\}$/, '$1');
    expect(image).toMatch(/^ghcr\.io\/ggml-org\/whisper\.cpp:/);
    expect(image).toMatch(EXACT_IMAGE);
    const command = stt.command!.join(' ');
    expect(command).toContain('--inference-path /v1/audio/transcriptions');
    expect(command).toContain('--port 8080');
    expect(command).toMatch(/--model \/app\/models\/ggml-base\.en\.bin/);
    expect(stt.healthcheck?.test.join(' ')).toContain(':8080/health');
  });

  it('is where tts looks for speech-to-text, and the command voice mode shows starts it', () => {
    const tts = compose.services.tts!;
    expect(tts.environment).toMatchObject({ STT_LOCAL_URL: STT_URL, STT_SETUP_COMMAND: 'docker compose --profile stt up -d stt' });
    // Still every variable the other services get (the tts block merges the shared ones).
    expect(tts.environment).toHaveProperty('DATABASE_URL');
  });

  (hasDockerCompose ? it : it.skip)(
    hasDockerCompose ? 'validates with the profile on' : 'validates with the profile on (skipped: docker-compose is not on PATH)',
    () => {
      const services = execFileSync('docker-compose', ['-f', 'docker-compose.yml', '--profile', 'stt', 'config', '--services'], {
        cwd: root,
        encoding: 'utf8',
      });
      expect(services.split('\n')).toContain('stt');
    },
  );
});

/** An overlay rendered with the speech-to-text component added, as an operator adds it to `components`. */
function renderWithComponent(overlay: string): { text: string; objects: K8sObject[] } {
  const dir = mkdtempSync(join(tmpdir(), 'stt-overlay-'));
  try {
    // Kustomize takes other kustomizations by relative path only; the namespace is the overlay's,
    // as it is when the component is listed in the overlay itself.
    const up = relative(dir, root);
    const { namespace } = parse(readFileSync(join(root, 'k8s/overlays', overlay, 'kustomization.yaml'), 'utf8')) as { namespace: string };
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        `namespace: ${namespace}`,
        'resources:',
        `  - ${up}/k8s/overlays/${overlay}`,
        'components:',
        `  - ${up}/k8s/components/speech-to-text`,
        '',
      ].join('\n'),
    );
    const text = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
    return { text, objects: parseAllDocuments(text).map((document) => document.toJS() as K8sObject) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(['dev', 'prod'])('k8s/overlays/%s with components/speech-to-text', (overlay) => {
  const test = hasKubectl ? it : it.skip;
  const title = (name: string) => (hasKubectl ? name : `${name} (skipped: kubectl is not on PATH)`);
  let objects: K8sObject[] = [];
  let text = '';
  beforeAll(() => {
    if (hasKubectl) ({ text, objects } = renderWithComponent(overlay));
  });

  test(title('renders valid core objects, the whisper server among them'), () => {
    const validation = validateCore(text);
    expect(validation.errors).toEqual([]);
    expect(validation.validated).toEqual(
      expect.arrayContaining(['Deployment/stt', 'Service/stt', 'NetworkPolicy/stt', 'NetworkPolicy/tts-to-stt']),
    );
  });

  test(title('runs it at an exact version, probed, bounded, unprivileged, on a read-only root'), () => {
    const stt = named<Workload>(objects, 'Deployment', 'stt')!;
    const spec = stt.spec.template.spec;
    const [container] = spec.containers;
    expect(container!.image).toMatch(EXACT_IMAGE);
    expect(imageTag(container!.image).tag ?? imageTag(container!.image).digest).toBeTruthy();
    expect(container!.readinessProbe?.httpGet?.path).toBe('/health');
    expect(container!.livenessProbe?.httpGet?.path).toBe('/health');
    expect(container!.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container!.resources?.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(spec.securityContext?.runAsNonRoot).toBe(true);
    expect(container!.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container!.args?.join(' ')).toContain('--inference-path /v1/audio/transcriptions');
  });

  test(title('lets tts reach it on 8080, and nothing else reach it; it reaches nothing'), () => {
    const namespace = named<Workload>(objects, 'Deployment', 'stt')!.metadata.namespace ?? '';
    const podOf = (name: string) => {
      const workload = named<Workload>(objects, 'Deployment', name)!;
      return pod(name, namespace, workload.spec.template.metadata?.labels ?? {});
    };
    const policies = ofKind<NetworkPolicy>(objects, 'NetworkPolicy');
    const stt = podOf('stt');
    expect(connects(policies, podOf('tts'), stt, 8080)).toBe(true);
    expect(connects(policies, podOf('gateway'), stt, 8080)).toBe(false);
    expect(connects(policies, podOf('chat'), stt, 8080)).toBe(false);
    expect(connects(policies, stt, podOf('gateway'), 8080)).toBe(false);
  });

  test(title('the tts pods look for it at its Service'), () => {
    const tts = named<Workload>(objects, 'Deployment', 'tts')!;
    const env = tts.spec.template.spec.containers.find((c) => c.name === 'app')!.env ?? [];
    expect(env).toEqual(expect.arrayContaining([{ name: 'STT_LOCAL_URL', value: STT_URL }]));
    const service = named<K8sObject & { spec: { ports: { port: number }[] } }>(objects, 'Service', 'stt')!;
    expect(service.spec.ports[0]!.port).toBe(8080);
  });

  test(title('is optional: the overlay alone has no whisper server'), () => {
    expect(named(render(overlay).objects, 'Deployment', 'stt')).toBeUndefined();
  });
});
