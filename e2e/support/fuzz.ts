import { Agent, request as httpRequest } from 'node:http';

/**
 * The pieces of the API fuzz suite (e2e/api/fuzz.e2e-spec.ts): a seeded random source, the
 * operations of the gateway's OpenAPI document, values made from their JSON schemas (valid,
 * schema-violating, hostile), and a client that sends anything (its own percent-encoding, any
 * content type, any body) and reads what comes back.
 */

// ---- A seeded random source (mulberry32): the same seed makes the same cases -----------------------

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** A version-4 UUID made of this source's bits (so it is the same on every run). */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = '89ab'[this.int(0, 3)];
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }

  /** Ordinary text: letters, digits, spaces, some accents and an emoji now and then. */
  text(min: number, max: number): string {
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789    .,-éüß';
    const length = this.int(min, max);
    let out = '';
    while (out.length < length) out += this.chance(0.02) && out.length + 2 <= length ? '😀' : alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }
}

// ---- What hostile input looks like ------------------------------------------------------------------

/** Strings that have broken servers somewhere: NUL, lone surrogates, bidi overrides, traversal, injections, sizes. */
export const HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ude00\ud83d',
  'invoice\u202Egpj.exe',
  '\u200B\u200D\uFEFF',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%00',
  '%ff%fe',
  '/',
  '.',
  '..',
  "' OR '1'='1' --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  '${jndi:ldap://127.0.0.1/a}',
  '{{7*7}}',
  '%s%s%s%n',
  'line\r\nX-Injected: 1',
  '\t\n\r\v\f',
  ' ',
  '',
  '-1',
  '0',
  'NaN',
  'Infinity',
  '1e309',
  '9007199254740993',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'x'.repeat(201),
  'x'.repeat(5_000),
  'é'.repeat(3_000),
  '😀'.repeat(1_000),
  'ﷺ'.repeat(500),
];

/** Values of the wrong kind for any field. */
const WRONG_KINDS: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  'x',
  [],
  [null],
  {},
  { a: 1 },
  ['x'.repeat(100)],
];

// ---- The OpenAPI document --------------------------------------------------------------------------

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  format?: string;
  default?: unknown;
  additionalProperties?: boolean | JsonSchema;
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `GET /api/v1/chats/{chat_id}` */
  id: string;
  method: string;
  /** The path template, `{name}` for parameters. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: { contentType: string; schema: JsonSchema };
  secured: boolean;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: (Parameter & { in: string })[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        security?: unknown[];
      }
    >
  >;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody ? Object.entries(operation.requestBody.content)[0] : undefined;
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path'),
        queryParams: parameters.filter((p) => p.in === 'query'),
        body: content ? { contentType: content[0], schema: content[1].schema } : undefined,
        secured: Boolean(operation.security?.length),
      });
    }
  }
  return operations;
}

// ---- Values from schemas ---------------------------------------------------------------------------

const typesOf = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/**
 * Makes values for a JSON schema. `known` gives real values for fields the fixtures hold (the
 * caller's chat id, a message id, a file id...), so valid requests reach the services' logic.
 */
export class ValueMaker {
  constructor(
    private readonly random: Random,
    private readonly known: (name: string) => unknown,
  ) {}

  valid(schema: JsonSchema, name = ''): unknown {
    const known = name ? this.known(name) : undefined;
    if (known !== undefined && this.random.chance(0.85)) return known;
    if (schema.enum?.length) return this.random.pick(schema.enum);
    if (schema.anyOf?.length) {
      const options = schema.anyOf.filter((s) => !typesOf(s).includes('null'));
      return options.length && this.random.chance(0.85) ? this.valid(this.random.pick(options), name) : null;
    }
    const types = typesOf(schema);
    const type =
      types.includes('null') && types.length > 1 && this.random.chance(0.8) ? types.find((t) => t !== 'null')! : (types[0] ?? 'string');
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return this.random.chance(0.5);
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
        const max = Math.min(schema.maximum ?? min + 1000, min + 1_000_000);
        const value = this.random.int(Math.ceil(min), Math.floor(max));
        return type === 'number' && value < max && this.random.chance(0.3) ? value + 0.5 : value;
      }
      case 'array':
        return Array.from({ length: this.random.int(0, 3) }, () => this.valid(schema.items ?? {}, ''));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [key, property] of Object.entries(schema.properties ?? {})) {
          if (schema.required?.includes(key) || this.random.chance(0.5)) out[key] = this.valid(property, key);
        }
        return out;
      }
      default:
        if (schema.format === 'uuid') return this.random.uuid();
        if (schema.format === 'date') return `19${this.random.int(50, 99)}-0${this.random.int(1, 9)}-1${this.random.int(0, 9)}`;
        return this.random.text(Math.max(1, schema.minLength ?? 1), Math.min(schema.maxLength ?? 40, 40));
    }
  }

  /** A value the schema refuses: the wrong kind, out of range, too long, off the list, fields missing or extra. */
  violating(schema: JsonSchema, name = ''): unknown {
    const types = typesOf(schema);
    const choices: (() => unknown)[] = [() => this.random.pick(WRONG_KINDS)];
    if (schema.maxLength !== undefined) choices.push(() => 'x'.repeat(schema.maxLength! + 1 + this.random.int(0, 100)));
    if (schema.minLength) choices.push(() => 'x'.repeat(schema.minLength! - 1));
    if (schema.maximum !== undefined) choices.push(() => schema.maximum! + 1);
    if (schema.minimum !== undefined) choices.push(() => schema.minimum! - 1);
    if (schema.enum) choices.push(() => 'not-in-the-list');
    if (schema.format === 'uuid')
      choices.push(() =>
        this.random.pick(['not-a-uuid', this.random.uuid().toUpperCase() + 'x', '00000000-0000-0000-0000-00000000000g', '{}']),
      );
    if (types.includes('integer'))
      choices.push(
        () => 1.5,
        () => '12abc',
      );
    if (types.includes('object') || schema.properties) {
      choices.push(() => {
        const value = (this.valid(schema, name) ?? {}) as Record<string, unknown>;
        const required = schema.required ?? [];
        if (required.length && this.random.chance(0.5)) delete value[this.random.pick(required)];
        else
          value[this.random.pick(['admin', 'user_id', 'is_anon', '__proto__', 'constructor', 'x'.repeat(300)])] =
            this.random.pick(WRONG_KINDS);
        const properties = Object.keys(schema.properties ?? {});
        if (properties.length && this.random.chance(0.5)) {
          const key = this.random.pick(properties);
          value[key] = this.violating(schema.properties![key], key);
        }
        return value;
      });
    }
    return this.random.pick(choices)();
  }

  /** The schema's shape with hostile strings (and numbers) where values go. */
  hostile(schema: JsonSchema, name = ''): unknown {
    const types = typesOf(schema.anyOf?.[0] ?? schema);
    if (types.includes('object') || schema.properties) {
      const out: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {}))
        out[key] = this.random.chance(0.6) ? this.hostile(property, key) : this.valid(property, key);
      if (this.random.chance(0.2)) out[this.random.pick(HOSTILE_STRINGS)] = this.random.pick(HOSTILE_STRINGS);
      return out;
    }
    if (types.includes('array'))
      return Array.from({ length: this.random.pick([1, 2, 1000]) }, () => this.hostile(schema.items ?? {}, name));
    if (types.includes('integer') || types.includes('number'))
      return this.random.pick([-0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.1, 1e-7]);
    if (types.includes('boolean')) return this.random.pick([0, 1, 'true', 'false', null]);
    return this.random.pick(HOSTILE_STRINGS);
  }
}

// ---- Encoding --------------------------------------------------------------------------------------

/**
 * Percent-encodes any string for a URL, lone surrogates included (as the bytes CESU-8 would use,
 * which are not valid UTF-8: what a hostile client can send and a browser never would).
 */
export function percentEncode(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    const next = value.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(value[i]);
    }
  }
  return out;
}

/** A path segment: percent-encoded, or now and then as it is (traversal and separators kept raw, other bytes encoded). */
export function pathSegment(random: Random, value: string): string {
  if (random.chance(0.15)) return value.replace(/[^\x21-\x7e]/g, (c) => percentEncode(c)).replace(/[?#]/g, (c) => percentEncode(c));
  return percentEncode(value);
}

// ---- Sending ---------------------------------------------------------------------------------------

export interface FuzzRequest {
  method: string;
  /** Path and query, encoded as they go on the wire. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What made it, for the report. */
  label: string;
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends a request as it is and reads the whole answer (at most `maxBytes` of it); rejects when no answer comes. */
export function send(baseUrl: string, fuzz: FuzzRequest, timeoutMs = 30_000, maxBytes = 4 * 1024 * 1024): Promise<FuzzResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest(
        { host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.target, headers: fuzz.headers, agent, timeout: timeoutMs },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= maxBytes) chunks.push(chunk);
          });
          const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          res.on('end', done);
          res.on('error', done); // the server closed after answering (a refused upload): the status is what counts
          res.on('aborted', done);
        },
      );
    } catch (error) {
      // Node's client refuses to send it (a header with a line break, say): nothing went out.
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(fuzz.body);
  });
}

export function closeFuzzAgent(): void {
  agent.destroy();
}

/** What every answer must be: no 5xx, a JSON `{detail}` on every 4xx, the security headers everywhere. */
export function problemsWith(fuzz: FuzzRequest, res: FuzzResponse): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  for (const [name, expected] of [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
  ] as const) {
    if (res.headers[name] !== expected) problems.push(`${name} is ${String(res.headers[name])}`);
  }
  if (!res.headers['content-security-policy']) problems.push('no content-security-policy');
  if (!res.headers['x-request-id']) problems.push('no x-request-id');
  if (fuzz.target.startsWith('/api/v1/') && !res.headers['cache-control']) problems.push('no cache-control');
  if (res.status >= 400 && fuzz.method !== 'HEAD') {
    const type = String(res.headers['content-type'] ?? '');
    let detail: unknown;
    try {
      detail = (JSON.parse(res.body.toString('utf8')) as { detail?: unknown }).detail;
    } catch {
      detail = undefined;
    }
    if (!type.startsWith('application/json')) problems.push(`a ${res.status} as ${type || 'no content type'}`);
    if (typeof detail !== 'string') problems.push(`a ${res.status} without {detail}: ${res.body.toString('utf8').slice(0, 200)}`);
  }
  return problems;
}
