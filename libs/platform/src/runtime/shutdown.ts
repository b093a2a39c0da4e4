import type { AppLogger } from '../logging/logger';

/** The default of SHUTDOWN_GRACE_MS: Kubernetes' terminationGracePeriodSeconds. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;

/**
 * When each step of a graceful stop must be over (epoch ms). The work in flight has until
 * `cutoffAt` to finish on its own; then handlers are told to wrap up with what they have; what is
 * still running at `abortAt` is ended (an RPC answers 503, a stream ends with a terminal error
 * frame); the rest of the grace period closes connections and flushes traces; at `exitAt` the
 * process exits, stopped or not.
 */
export interface ShutdownPlan {
  startedAt: number;
  graceMs: number;
  cutoffAt: number;
  abortAt: number;
  exitAt: number;
}

export function planShutdown(graceMs: number, startedAt = Date.now()): ShutdownPlan {
  // Kept back from the work for ending it and closing: a fifth of the grace, between 0.5 and 5 s.
  const reserve = Math.min(5_000, Math.max(500, Math.round(graceMs / 5)));
  return {
    startedAt,
    graceMs,
    cutoffAt: startedAt + graceMs - reserve,
    abortAt: startedAt + graceMs - Math.round(reserve / 2),
    exitAt: startedAt + graceMs,
  };
}

/**
 * Runs `stop` once on SIGINT or SIGTERM, then exits 0. `stop` gets the plan of the grace period
 * (SHUTDOWN_GRACE_MS); if it is not over by then the process exits anyway (code 1), so an
 * orchestrator never waits on a stuck process. Later signals are ignored (the handlers stay, so
 * that they do not kill the process mid-stop: stopping the embedded PostgreSQL as root signals
 * the whole process group again).
 */
export function exitOnSignals(stop: (plan: ShutdownPlan) => Promise<void>, logger: AppLogger, graceMs = DEFAULT_SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  // The log may be written in the background (production): what it still holds goes out before the exit.
  const exit = (code: number) => {
    logger.flush();
    process.exit(code);
  };
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const plan = planShutdown(graceMs);
    logger.log(`${signal} received: finishing the work in flight (at most ${(graceMs / 1000).toFixed(0)} s), then stopping`, 'Shutdown');
    const force = setTimeout(() => {
      logger.error(`Still stopping after ${graceMs} ms, exiting anyway`, 'Shutdown');
      exit(1);
    }, plan.exitAt - Date.now());
    force.unref();
    stop(plan).then(
      () => {
        clearTimeout(force);
        logger.log(`Stopped cleanly in ${Date.now() - plan.startedAt} ms`, 'Shutdown');
        exit(0);
      },
      (error: unknown) => {
        logger.error(error instanceof Error ? error : String(error), 'Shutdown');
        exit(1);
      },
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
