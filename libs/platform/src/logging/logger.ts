import type { LoggerService, LogLevel } from '@nestjs/common';
import { currentRequestContext } from './request-context';

const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

export type Level = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<Level, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface LoggerOptions {
  service: string;
  level: Level;
  format: 'json' | 'pretty';
  /** Where lines go; stdout by default. Tests pass their own sink. */
  sink?: (line: string) => void;
}

/**
 * Structured logger for Nest and for our own code: one JSON object per line (or a readable
 * line in the embedded mode), with the service, the request id and the user of the current request.
 */
export class AppLogger implements LoggerService {
  private readonly sink: (line: string) => void;

  constructor(private readonly options: LoggerOptions) {
    this.sink = options.sink ?? ((line) => process.stdout.write(`${line}\n`));
  }

  child(service: string): AppLogger {
    return new AppLogger({ ...this.options, service });
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
    if (this.options.format === 'json') {
      this.sink(
        JSON.stringify({
          time: new Date().toISOString(),
          level,
          service: this.options.service,
          ...(context ? { context } : {}),
          msg: text,
          ...(request ? { request_id: request.request_id, user_id: request.user_id ?? undefined } : {}),
          ...fields,
          ...(stack ? { stack } : {}),
        }),
      );
      return;
    }
    const time = new Date().toISOString().slice(11, 23);
    const extra = Object.keys(fields).length ? ` ${JSON.stringify(fields)}` : '';
    const req = request ? ` req=${request.request_id}` : '';
    this.sink(
      `${time} ${level.toUpperCase().padEnd(5)} [${this.options.service}]${context ? ` ${context}:` : ''} ${text}${extra}${req}${stack ? `\n${stack}` : ''}`,
    );
  }
}
