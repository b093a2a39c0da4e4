// Validates Kubernetes objects against the API schemas of kubernetes-models, offline.
// Reads a multi-document YAML stream on stdin (e.g. `kubectl kustomize k8s/overlays/prod`) and prints
// one JSON object: { validated: [kind/name...], unknown: [apiVersion kind/name...], errors: [...] }.
// `unknown` lists objects whose type kubernetes-models does not know (custom resources); the
// manifest suite checks those structurally. A separate process because kubernetes-models is an ES
// module only, which Jest's CommonJS loader cannot import.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const input = readFileSync(0, 'utf8');
const objects = parseAllDocuments(input)
  .map((document) => document.toJS())
  .filter(Boolean);

/** apiVersion `v1` -> `kubernetes-models/v1`; `apps/v1` -> `kubernetes-models/apps/v1`. */
async function modelOf(apiVersion, kind) {
  try {
    const module = await import(`kubernetes-models/${apiVersion}`);
    return module[kind];
  } catch {
    return undefined;
  }
}

const result = { validated: [], unknown: [], errors: [] };
for (const object of objects) {
  const where = `${object.kind}/${object.metadata?.name}`;
  const Model = await modelOf(object.apiVersion, object.kind);
  if (typeof Model !== 'function') {
    result.unknown.push(`${object.apiVersion} ${where}`);
    continue;
  }
  // kustomize folds long base64 values of Secret data over several lines; the API server's decoder
  // skips line breaks, the schema's `byte` format does not.
  if (object.kind === 'Secret' && object.data) {
    object.data = Object.fromEntries(Object.entries(object.data).map(([key, value]) => [key, String(value).replace(/\s+/g, '')]));
  }
  try {
    new Model(object).validate();
    result.validated.push(where);
  } catch (error) {
    const details = Array.isArray(error?.errors)
      ? error.errors.map((e) => `${e.instancePath} ${e.message}`).join('; ')
      : String(error?.message ?? error);
    result.errors.push(`${where}: ${details}`);
  }
}
process.stdout.write(JSON.stringify(result));
