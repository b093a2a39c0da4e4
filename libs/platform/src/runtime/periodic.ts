import type { AppLogger } from '../logging/logger';

/** A sweep started by runPeriodically, until `stop()`. */
export interface Periodic {
  stop(): void;
}

/**
 * Runs `work` every `everyMs` (and once at the start with `immediately`) until stopped: a run that
 * fails is logged as an error under `context` and the next one goes ahead; the timer never keeps the
 * process alive. For the sweeps a service starts on application bootstrap and stops on shutdown.
 */
export function runPeriodically(
  work: () => Promise<unknown>,
  everyMs: number,
  logger: Pick<AppLogger, 'error'>,
  context: string,
  options: { immediately?: boolean } = {},
): Periodic {
  const run = () => void work().catch((error: unknown) => logger.error(error instanceof Error ? error : String(error), context));
  if (options.immediately) run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
