import type { AppLogger } from '@app/platform';

/** A logger that keeps its lines. */
export class FakeLogger implements Pick<AppLogger, 'warn' | 'error' | 'info' | 'debug'> {
  readonly lines: { level: string; message: unknown }[] = [];
  warn(message: unknown): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: unknown): void {
    this.lines.push({ level: 'error', message });
  }
  info(message: unknown): void {
    this.lines.push({ level: 'info', message });
  }
  debug(message: unknown): void {
    this.lines.push({ level: 'debug', message });
  }
  /** The `msg` of each line at a level. */
  said(level: string): string[] {
    return this.lines
      .filter((l) => l.level === level)
      .map((l) => (typeof l.message === 'object' && l.message && 'msg' in l.message ? String(l.message.msg) : String(l.message)));
  }
}
