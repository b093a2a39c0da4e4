import { z } from 'zod';

/**
 * Text PostgreSQL (and most things after it) cannot take: NUL, and UTF-16 surrogates without
 * their pair (JSON may spell both, `"\u0000"` and `"\ud800"`). Every boundary refuses them with
 * `parseContract` before a schema sees the value, for every string of every contract, keys
 * included, so no field can forget it.
 */
export const UNSAFE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
export const UNSAFE_KEY_MESSAGE = `field names ${UNSAFE_TEXT_MESSAGE}`;

// Without the `u` flag a regex sees UTF-16 code units: a high surrogate not followed by a low
// one, a low one not preceded by a high one, or NUL.
const UNSAFE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is free of NUL and unpaired surrogates. */
export function isSafeText(value: string): boolean {
  return !UNSAFE.test(value);
}

const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/**
 * The text with what cannot be stored taken out: NUL dropped, an unpaired surrogate replaced by
 * U+FFFD. For text a client did not send (a model's answer), which is kept rather than refused.
 * Apply it to a whole text, not to pieces of a stream: a pair split between two pieces is whole again.
 */
export function toSafeText(value: string): string {
  return isSafeText(value) ? value : value.replace(UNSAFE_ALL, (found) => (found === '\0' ? '' : '\uFFFD'));
}

/** JSON text for a jsonb column (which refuses `\u0000` and lone `\ud800` escapes): every string value made safe. */
export function toSafeJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? toSafeText(item) : item));
}

export interface UnsafeText {
  /** Where the bad string is: the field (`conversation_title`, `files.0.mime_type`), or the object whose key is bad. */
  path: (string | number)[];
  message: string;
}

interface Node {
  value: unknown;
  key: string | number | null;
  parent: Node | null;
}

function pathOf(node: Node | null): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at = node; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Bytes and dates hold no text to check; anything else object-like is walked by its own keys. */
const isOpaque = (value: object) => ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date;

/**
 * The first string (value or key) of a parsed JSON-like value that is not safe text, in document
 * order; null when there is none. Walks arrays and objects by their own keys (Fastify's query and
 * params objects have a prototype of their own), without recursion, so a deeply nested body
 * cannot overflow the stack, and each object once, so a cycle cannot loop.
 */
export function findUnsafeText(value: unknown): UnsafeText | null {
  const stack: Node[] = [{ value, key: null, parent: null }];
  const seen = new Set<object>();
  while (stack.length) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      if (!isSafeText(current)) return { path: pathOf(node), message: UNSAFE_TEXT_MESSAGE };
      continue;
    }
    if (current === null || typeof current !== 'object' || seen.has(current) || isOpaque(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: node });
    } else {
      const keys = Object.keys(current);
      for (const key of keys) if (!isSafeText(key)) return { path: pathOf(node), message: UNSAFE_KEY_MESSAGE };
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ value: (current as Record<string, unknown>)[keys[i]], key: keys[i], parent: node });
    }
  }
  return null;
}

export type ContractParseResult<T> = { success: true; data: T } | { success: false; error: z.ZodError; unsafeText: boolean };

/**
 * Parses a value against a contract schema after refusing unsafe text anywhere in it. The one
 * way a boundary (the gateway's bodies, queries and path parameters; a service's RPC requests)
 * reads what it is sent. An unsafe string fails as a zod issue at its path, so it is reported
 * like any other validation failure (`conversation_title: must not contain NUL characters...`).
 */
export function safeParseContract<S extends z.ZodType>(schema: S, value: unknown): ContractParseResult<z.output<S>> {
  const unsafe = findUnsafeText(value);
  if (unsafe) {
    const error = new z.ZodError([{ code: 'custom', path: unsafe.path, message: unsafe.message, input: undefined }]);
    return { success: false, error, unsafeText: true };
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error, unsafeText: false };
}

/** `safeParseContract` that throws the ZodError (the gateway maps it to 422 `{detail}`). */
export function parseContract<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = safeParseContract(schema, value);
  if (!result.success) throw result.error;
  return result.data;
}
