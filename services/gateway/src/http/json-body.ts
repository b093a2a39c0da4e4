import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DomainError } from '@app/platform';
import type { RawServerDefault } from 'fastify';

/**
 * The deepest nesting of arrays and objects a JSON body may have. The deepest body of the API is a
 * handful of levels; a body nested thousands deep is an attack on whatever walks it next (String()
 * of nested arrays, JSON.stringify on the bus, zod) and is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;

export const JSON_TOO_DEEP = `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether a JSON text opens more than `max` arrays or objects inside one another: one pass over the
 * bytes, no recursion, brackets inside strings (escapes honoured) ignored. UTF-8 never puts these
 * ASCII bytes inside a multi-byte character, so bytes are enough. Malformed text is left to the parser.
 */
export function jsonDepthExceeds(body: Buffer | string, max: number = MAX_JSON_DEPTH): boolean {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/**
 * The gateway's one JSON body parser, for every route: Fastify's own (prototype poisoning refused)
 * behind a depth check, so a body nested deeper than MAX_JSON_DEPTH is a 400 `{detail}` on any
 * route and never reaches a handler. Registered before Nest's default parser, which it replaces.
 */
export function useBoundedJsonBodies(app: NestFastifyApplication, bodyLimit: number): void {
  const parse = app.getHttpAdapter().getInstance().getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit }, (request, body, done) => {
    if (jsonDepthExceeds(body)) return done(DomainError.badRequest(JSON_TOO_DEEP), undefined);
    parse(request, body.toString(), done);
  });
}
