/** What a log line shows in place of a secret. */
export const REDACTED = '[REDACTED]';

/**
 * Keys whose value is a secret wherever they appear: access and refresh tokens, the Authorization
 * header, cookies, passwords, API keys, Twilio's auth token. Matched on the whole key, any case,
 * `-` and `_` alike (`set-cookie`, `x-api-key`, `TWILIO_AUTH_TOKEN`).
 */
const SECRET_KEY =
  /^(?:.*[_-])?(?:token|access[_-]?token|id[_-]?token|refresh[_-]?token|auth[_-]?token|authorization|proxy[_-]?authorization|cookie|set[_-]cookie|password|passwd|secret|client[_-]?secret|api[_-]?key|x[_-]api[_-]key|private[_-]?key)$/i;

/** Keys that hold a phone number. */
const PHONE_KEY = /^(?:to|from|phone|phone[_-]?number|to[_-]?number|from[_-]?number|recipient)$/i;

/** An error code name (`bad_request`, `rate_limited`) under `code` is not a secret; anything else there is (a sign-in or OAuth code). */
const ERROR_CODE_NAME = /^[a-z][a-z0-9_]*$/;

/** Secrets recognised inside any text, with what replaces them. */
const SECRET_TEXT: [RegExp, string][] = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Query and form parameters, and `key: value` / `key=value` pairs in a message.
  [/\b(access_token|id_token|refresh_token|token|client_secret|password|api_key)(=|":"|:\s*)[^&\s"',;]+/gi, `$1$2${REDACTED}`],
  // The code of a sign-in callback (`?code=...&state=...`).
  [/([?&]code=)[^&\s"']+/g, `$1${REDACTED}`],
  // The password of a connection URL (`redis://:secret@host`, `postgres://user:secret@host`).
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s/]+@/gi, `$1${REDACTED}@`],
  [/\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{12,}/g, `sk-${REDACTED}`],
  // JSON Web Tokens (id tokens, signed state).
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/g, REDACTED],
  // Twilio auth tokens and other 32-hex-digit secrets standing alone (a SID, SM + 32 hex, is not one).
  [/\b[0-9a-f]{32}\b/g, REDACTED],
];

/** A phone number in E.164 form. */
const PHONE_TEXT = /\+\d{7,15}\b/g;
/** A run of digits that can be a one-time code, in a text that speaks of a code. */
const CODE_DIGITS = /\b\d{4,8}\b/g;
const MENTIONS_CODE = /code|verification|one-time|otp/i;

/** `+14155550123` becomes `+•••••••••23`: the last two digits tell two numbers apart, not who it is. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 5) return '•'.repeat(phone.length);
  return `${phone.startsWith('+') ? '+' : ''}${'•'.repeat(digits.length - 2)}${digits.slice(-2)}`;
}

export interface RedactionRules {
  /** Also hide personal data: phone numbers, and one-time codes in texts about a code (production). */
  personal: boolean;
}

/** Hides the secrets (and with `personal`, the phone numbers and codes) inside a text. */
export function redactText(text: string, rules: RedactionRules): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  if (rules.personal) {
    out = out.replace(PHONE_TEXT, maskPhone);
    if (MENTIONS_CODE.test(out)) out = out.replace(CODE_DIGITS, (digits) => `${digits.slice(0, 2)}${'•'.repeat(digits.length - 2)}`);
  }
  return out;
}

/**
 * A copy of `value` with the secrets hidden, at any depth: the values of secret keys, a `code`
 * that is not an error code name, the secrets inside strings; with `personal`, phone numbers too.
 * Numbers and booleans under secret keys stay (`max_tokens`, token counts). Errors and other class
 * instances are kept as they are; cycles and very deep objects end in a placeholder.
 */
export function redactFields(value: unknown, rules: RedactionRules, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactText(value, rules);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  if (depth > 8) return '[Deep]';
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => redactFields(item, rules, depth + 1, seen));
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    out[key] = redactEntry(key, item, rules, depth, seen);
  }
  return out;
}

function redactEntry(key: string, item: unknown, rules: RedactionRules, depth: number, seen: WeakSet<object>): unknown {
  const secretValue = typeof item === 'string' || (typeof item === 'object' && item !== null);
  if (secretValue && SECRET_KEY.test(key)) return REDACTED;
  if (
    key.toLowerCase() === 'code' &&
    (typeof item === 'string' ? !ERROR_CODE_NAME.test(item) : typeof item === 'number' && rules.personal && /^\d{4,8}$/.test(String(item)))
  )
    return REDACTED;
  if (rules.personal && typeof item === 'string' && PHONE_KEY.test(key) && /^\+?[\d\s().-]{7,}$/.test(item)) return maskPhone(item);
  return redactFields(item, rules, depth + 1, seen);
}
