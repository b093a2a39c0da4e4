import type { AppLogger } from '../logging/logger';

/**
 * Runs `stop` once on SIGINT or SIGTERM, then exits. If stopping takes longer than the grace
 * period the process exits anyway (code 1), so an orchestrator never waits on a stuck process.
 */
export function exitOnSignals(stop: () => Promise<void>, logger: AppLogger, graceMs = 9_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received, shutting down`, 'Shutdown');
    const force = setTimeout(() => {
      logger.error(`Still stopping after ${graceMs} ms, exiting anyway`, 'Shutdown');
      process.exit(1);
    }, graceMs);
    force.unref();
    stop().then(
      () => {
        clearTimeout(force);
        logger.log('Stopped cleanly', 'Shutdown');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(error instanceof Error ? error : String(error), 'Shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
