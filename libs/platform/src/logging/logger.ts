import type { LoggerService, LogLevel } from '@nestjs/common';
import { pino, type DestinationStream, type Logger as Pino } from 'pino';
import { redactFields, redactText, type RedactionRules } from './redact';
import { currentRequestContext } from './request-context';

const NEST_BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
  'NestMicroservice',
]);

export type Level = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface LoggerOptions {
  service: string;
  level: Level;
  format: 'json' | 'pretty';
  /** Where lines go; stdout by default. Tests pass their own sink. */
  sink?: (line: string) => void;
  /** Buffer writes to stdout and write them in the background (production); `flush()` writes what is left. Ignored with a sink. */
  async?: boolean;
  /** Also mask phone numbers and one-time codes (production). Secrets (tokens, keys, cookies) are always hidden. */
  redactPersonalData?: boolean;
}

/** The pino instance and the stream under it, shared by a logger and its children. */
export interface LoggerOutput {
  pino: Pino;
  flush(): void;
}

/**
 * Structured logger for Nest and for our own code, written by pino: one JSON object per line (or
 * a readable line in the embedded mode), with the service, the request id and the user of the
 * current request. Secrets are hidden in the fields and in the message (see redact.ts).
 */
export class AppLogger implements LoggerService {
  private readonly out: LoggerOutput;
  private readonly rules: RedactionRules;

  constructor(
    private readonly options: LoggerOptions,
    shared?: LoggerOutput,
  ) {
    this.rules = { personal: options.redactPersonalData ?? false };
    this.out = shared ?? createLoggerOutput(options, this.rules);
  }

  child(service: string): AppLogger {
    return new AppLogger({ ...this.options, service }, this.out);
  }

  /** Writes out what an asynchronous destination still holds (on shutdown, before the process exits). */
  flush(): void {
    this.out.flush();
  }

  log(message: unknown, ...rest: unknown[]): void {
    // Nest's start-up chatter (modules loaded, routes mapped) is only worth seeing when debugging.
    const context = rest[rest.length - 1];
    this.write(typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  info(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  setLogLevels(_levels: LogLevel[]): void {
    // The level comes from LOG_LEVEL; Nest's own setting is ignored on purpose.
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (RANK[level] > RANK[this.options.level]) return;
    // Nest passes (message, context) or (message, stack, context); the last string is the context.
    const args = [...rest];
    const context = typeof args[args.length - 1] === 'string' ? (args.pop() as string) : undefined;
    let stack: string | undefined;
    if (level === 'error' && typeof args[0] === 'string' && args[0].includes('\n    at ')) stack = args.shift() as string;
    const fields: Record<string, unknown> = {};
    let text: string;
    if (message instanceof Error) {
      text = message.message;
      stack ??= message.stack;
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...other } = message as Record<string, unknown>;
      text = typeof msg === 'string' ? msg : JSON.stringify(message);
      if (typeof msg === 'string') Object.assign(fields, other);
    } else {
      text = String(message);
    }
    for (const extra of args) {
      if (extra instanceof Error) stack ??= extra.stack;
      else if (typeof extra === 'object' && extra !== null) Object.assign(fields, extra);
    }
    const request = currentRequestContext();
    const line: Record<string, unknown> = {
      service: this.options.service,
      ...(context ? { context } : {}),
      ...(request ? { request_id: request.request_id, ...(request.user_id ? { user_id: request.user_id } : {}) } : {}),
      ...fields,
      ...(stack ? { stack: redactText(stack, this.rules) } : {}),
    };
    this.out.pino[level](line, redactText(text, this.rules));
  }
}

function createLoggerOutput(options: LoggerOptions, rules: RedactionRules): LoggerOutput {
  const { stream, flush } = destination(options);
  const logger = pino(
    {
      level: 'debug',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        level: (label) => ({ level: label }),
        log: (fields) => redactFields(fields, rules) as Record<string, unknown>,
      },
    },
    stream,
  );
  return { pino: logger, flush };
}

/** A sink (tests, the embedded mode), stdout written in the background (production), or stdout written at once. */
function destination(options: LoggerOptions): { stream: DestinationStream; flush(): void } {
  const format = options.format === 'pretty' ? prettyLine : (line: string) => line;
  if (options.sink) {
    const sink = options.sink;
    return { stream: { write: (chunk) => sink(format(chunk.replace(/\n$/, ''))) }, flush: () => undefined };
  }
  if (options.format === 'pretty') {
    return { stream: { write: (chunk) => void process.stdout.write(`${prettyLine(chunk.replace(/\n$/, ''))}\n`) }, flush: () => undefined };
  }
  const stdout = pino.destination({ dest: 1, sync: !options.async, minLength: options.async ? 4096 : 0 });
  return {
    stream: stdout,
    flush: () => {
      try {
        stdout.flushSync();
      } catch {
        // Not open yet, or already closed: nothing to write.
      }
    },
  };
}

const SHOWN_APART = new Set(['time', 'level', 'service', 'context', 'msg', 'request_id', 'user_id', 'stack']);

/** The readable form of one JSON line: `12:00:00.000 INFO  [chat] Context: message {fields} req=...`. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const str = (value: unknown) => (typeof value === 'string' ? value : '');
  const time = str(entry.time).slice(11, 23);
  const fields = Object.fromEntries(Object.entries(entry).filter(([key]) => !SHOWN_APART.has(key)));
  const extra = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
  const req = entry.request_id ? ` req=${str(entry.request_id)}` : '';
  const context = entry.context ? ` ${str(entry.context)}:` : '';
  const stack = entry.stack ? `\n${str(entry.stack)}` : '';
  return `${time} ${str(entry.level).toUpperCase().padEnd(5)} [${str(entry.service)}]${context} ${str(entry.msg)}${extra}${req}${stack}`;
}
