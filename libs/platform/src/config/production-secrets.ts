import { PUBLISHED_SECRET_VALUES } from './published-secrets';

/**
 * Every variable of every process that holds a secret. A workspace test
 * (e2e/workspace/production-secrets.int-spec.ts) walks every service's schema and fails when a
 * variable named like a secret is missing here. FIREBASE_API_KEY is not one: Firebase's web key is
 * public by design (the browser receives it).
 */
export const SECRET_VARIABLES = [
  'AUTH_KEY_ENCRYPTION_KEY',
  'APPLE_PRIVATE_KEY',
  'BRAVE_SEARCH_API_KEY',
  'FILES_URL_SIGNING_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'OPENAI_API_KEY',
  'S3_SECRET_ACCESS_KEY',
  'STT_API_KEY',
  'TOOLS_ENCRYPTION_KEY',
  'TTS_API_KEY',
  'TWILIO_AUTH_TOKEN',
] as const;

/** Variables that are URLs and may carry a password (`scheme://user:password@host`): the password is a secret too. */
const URL_VARIABLE = /_URL$|_ENDPOINT$/;

/** Words that say "this is not a real secret" (compared without case, spaces or punctuation). */
const PLACEHOLDER_PARTS = [
  'changeme',
  'replaceme',
  'placeholder',
  'password',
  'passwd',
  'secret',
  'example',
  'devonly',
  'insecure',
  'dummy',
  'notreal',
];
const PLACEHOLDER_WORDS = [
  'test',
  'testing',
  'default',
  'admin',
  'root',
  'token',
  'key',
  'apikey',
  'todo',
  'fixme',
  'none',
  'null',
  'empty',
  'foo',
  'bar',
  'qwerty',
  'letmein',
  'abc',
  'abcdef',
  'sample',
];

/** The least entropy (in bits, as measured below) a secret may have. */
const MIN_ENTROPY_BITS = 64;

const publishedValues = new Set(PUBLISHED_SECRET_VALUES);

/** Shannon entropy of the characters of a value times its length: a generous estimate of what a guesser faces. */
function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / length) * Math.log2(count / length);
  return perChar * length;
}

/** The shortest unit the value (without base64 padding) repeats, when it is a repetition of one of at most 8 characters. */
function repeatedUnit(value: string): string | null {
  const body = value.replace(/=+$/, '');
  for (let size = 1; size <= 8 && size * 2 <= body.length; size++) {
    const unit = body.slice(0, size);
    if (unit.repeat(Math.ceil(body.length / size)).startsWith(body)) return unit;
  }
  return null;
}

/** Why a secret's value must not be used in production, or null when it may. */
export function weakSecretReason(value: string): string | null {
  if (publishedValues.has(value)) return 'is a value published in this repository (a development default or an example): generate your own';
  const unit = repeatedUnit(value);
  if (unit !== null) return `has too little entropy (it repeats ${JSON.stringify(unit.length > 3 ? `${unit.slice(0, 3)}…` : unit)})`;
  const folded = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const part = PLACEHOLDER_PARTS.find((word) => folded.includes(word));
  if (part || PLACEHOLDER_WORDS.includes(folded.replace(/\d+$/, ''))) return `is a placeholder ("${part ?? folded}"), not a secret`;
  if (entropyBits(value) < MIN_ENTROPY_BITS)
    return `has too little entropy (under ${MIN_ENTROPY_BITS} bits): use 32 random bytes, e.g. openssl rand -base64 32`;
  return null;
}

function urlPassword(value: string): string | null {
  try {
    const password = new URL(value).password;
    return password ? decodeURIComponent(password) : null;
  } catch {
    return null;
  }
}

/**
 * What production refuses at boot (issue 22.2), one line per variable: a secret whose value is
 * published in this repository, too regular to be random, or a placeholder word; a password inside
 * a URL variable by the same rules; a PUBLIC_URL that is not https. Nothing outside production.
 */
export function productionConfigProblems(env: Record<string, string | undefined>): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const value = env[name];
    const reason = value ? weakSecretReason(value) : null;
    if (reason) problems.push(`${name}: ${reason}`);
  }
  for (const [name, value] of Object.entries(env)) {
    if (!URL_VARIABLE.test(name) || !value) continue;
    const password = urlPassword(value);
    const reason = password ? weakSecretReason(password) : null;
    if (reason) problems.push(`${name}: its password ${reason}`);
  }
  if (env.PUBLIC_URL && !env.PUBLIC_URL.startsWith('https://')) problems.push('PUBLIC_URL: must be https:// when NODE_ENV is production');
  return problems;
}
