import type { RpcErrorShape } from '@app/contracts';
import type { AppLogger } from '../logging/logger';
import type { ShutdownPlan } from './shutdown';

/**
 * Where a service is in its life, for the code it hosts (inject `ServiceLifecycle`):
 * - `stopping` aborts when the service starts draining: it takes no new requests, the ones in
 *   flight (reply streams included) still run to their end;
 * - `cutoff` aborts when the grace period is nearly over: whatever still runs must finish now with
 *   what it has (a reply being generated is stored as incomplete and its stream ended), because
 *   what is still open shortly after is ended by the platform with a terminal error.
 */
export class ServiceLifecycle {
  private readonly stoppingController = new AbortController();
  private readonly cutoffController = new AbortController();
  readonly stopping: AbortSignal = this.stoppingController.signal;
  readonly cutoff: AbortSignal = this.cutoffController.signal;

  get isStopping(): boolean {
    return this.stopping.aborted;
  }

  beginStopping(): void {
    if (!this.stopping.aborted) this.stoppingController.abort(new Error('The service is shutting down'));
  }

  cutOff(): void {
    this.beginStopping();
    if (!this.cutoff.aborted) this.cutoffController.abort(new Error('The service is shutting down and its grace period is over'));
  }
}

/** What draining needs from the transport (the BusServer). */
export interface DrainableServer {
  stopAccepting(): Promise<void>;
  readonly inFlightCount: number;
  /** True once nothing is in flight, false if something still is at `deadline` (epoch ms). */
  idle(deadline: number): Promise<boolean>;
  /** Ends what is still in flight with `shape`; returns how many. */
  abortInFlight(shape: RpcErrorShape): number;
}

export interface DrainOutcome {
  /** Requests in flight when draining began. */
  inFlight: number;
  /** Of those, how many were ended by the platform because the grace period ran out. */
  aborted: number;
}

/**
 * The drain sequence of one service: stop taking work, let what is in flight finish until the
 * plan's cutoff, tell the handlers to wrap up, then end what is still open at `abortAt` with a 503
 * (a terminal error frame for a stream) so that no caller is left hanging.
 */
export async function drainService(
  service: string,
  server: DrainableServer,
  lifecycle: ServiceLifecycle,
  plan: ShutdownPlan,
  logger: AppLogger,
): Promise<DrainOutcome> {
  lifecycle.beginStopping();
  await server.stopAccepting();
  const inFlight = server.inFlightCount;
  if (inFlight === 0) return { inFlight, aborted: 0 };
  logger.log(`Stopped taking requests; finishing ${inFlight} in flight`, 'Shutdown');
  if (await server.idle(plan.cutoffAt)) return { inFlight, aborted: 0 };
  logger.warn(`${server.inFlightCount} requests still in flight as the grace period ends: asking them to wrap up`, 'Shutdown');
  lifecycle.cutOff();
  if (await server.idle(plan.abortAt)) return { inFlight, aborted: 0 };
  const aborted = server.abortInFlight({
    status: 503,
    detail: `The ${service} service restarted before it could finish; please try again`,
    code: 'unavailable',
  });
  logger.warn(`Ended ${aborted} requests that did not finish within the grace period`, 'Shutdown');
  return { inFlight, aborted };
}
