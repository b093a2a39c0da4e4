/**
 * Secret values this repository publishes or once published (docker-compose defaults, the k8s dev
 * overlay's placeholders, the .env examples, the README): production refuses every one of them.
 * `e2e/workspace/production-secrets.int-spec.ts` runs `publishedSecretsIn` over the repository's
 * files and fails, naming what to add, when a value found there is missing here; a value removed
 * from the files stays here (it was public once).
 */
export const PUBLISHED_SECRET_VALUES: readonly string[] = [
  'assistant-dev-only',
  'assistant-dev-only-searxng-secret',
  'CHANGE-ME',
  'CHANGE-ME-dev-only-auth-key-encryption-key0',
  'PASSWORD',
  'password',
  'ZGV2LW9ubHktYXV0aC1rZXktZW5jcnlwdGlvbi1rZXk=',
];

/** Names whose values are secrets, in the files scanned (the services' own and the ones compose and k8s pass on). */
const SECRET_NAME = /PASSWORD|SECRET|_TOKEN$|PRIVATE_KEY|API_KEY|ENCRYPTION_KEY|AUTH_KEY$/;
/** Not values: empty, a substitution, a placeholder in angle brackets, a reference. */
const NOT_A_VALUE = /^$|\$\{|\$\(|^</;

function clean(raw: string): string | null {
  const value = raw.trim().replace(/^(['"])(.*)\1$/, '$2');
  return NOT_A_VALUE.test(value) ? null : value;
}

/**
 * The secret values written in a configuration or documentation file: `${NAME:-value}` defaults,
 * `NAME=value` lines (env files, kustomize literals, shell), `NAME: value` YAML entries, and the
 * password of any `scheme://user:password@` URL, where NAME is named like a secret.
 */
export function publishedSecretsIn(text: string): string[] {
  const found = new Set<string>();
  const add = (raw: string | undefined) => {
    const value = raw === undefined ? null : clean(raw);
    if (value) found.add(value);
  };
  for (const match of text.matchAll(/\$\{([A-Z][A-Z0-9_]*):?-([^}]*)\}/g)) if (SECRET_NAME.test(match[1])) add(match[2]);
  for (const match of text.matchAll(/(?:^|[\s"'`-])([A-Z][A-Z0-9_]*)=([^\s"'`#]+)/gm)) if (SECRET_NAME.test(match[1])) add(match[2]);
  for (const match of text.matchAll(/^\s*([A-Z][A-Z0-9_]*):[ \t]+(\S.*?)\s*$/gm)) if (SECRET_NAME.test(match[1])) add(match[2]);
  for (const match of text.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:([^\s@/]+)@/g)) add(decodeURIComponent(match[1]));
  return [...found];
}
