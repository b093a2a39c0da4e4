import type { Server as HttpServer } from 'node:http';
import { Injectable, type INestApplication } from '@nestjs/common';
import type { AppLogger, ShutdownPlan } from '@app/platform';

/** A reply stream the gateway is relaying: ended with an `error` + `done` if the grace period runs out. */
export interface OpenStream {
  abort(detail: string): void;
}

/** What draining needs from the HTTP server. */
export interface ClosableServer {
  /** Stops accepting connections; resolves once every connection is over. */
  close(): Promise<void>;
  /** Ends the connections still open. */
  closeAllConnections(): void;
}

export interface GatewayDrainOutcome {
  /** Reply streams open when draining began. */
  streams: number;
  /** Of those, how many had to be ended because the grace period ran out. */
  aborted: number;
}

export const RESTARTING_DETAIL = 'The server restarted during the reply; reload the conversation to see it.';

const sleepUntil = (at: number) =>
  new Promise<'late'>((resolve) => {
    setTimeout(() => resolve('late'), Math.max(0, at - Date.now())).unref();
  });

/**
 * The gateway's side of a graceful stop: readiness goes not-ready first, then the server stops
 * accepting connections while the requests and reply streams in flight finish; at the cutoff the
 * streams still open end with an `error` and `done`, at `abortAt` the last connections are closed.
 */
@Injectable()
export class GatewayLifecycle {
  private draining = false;
  private readonly streams = new Set<OpenStream>();

  get isDraining(): boolean {
    return this.draining;
  }

  get openStreams(): number {
    return this.streams.size;
  }

  /** Registers a relayed stream; returns its unregistration. */
  track(stream: OpenStream): () => void {
    this.streams.add(stream);
    return () => this.streams.delete(stream);
  }

  /** Ends every open stream with `detail`; returns how many. */
  abortStreams(detail: string): number {
    const open = [...this.streams];
    for (const stream of open) stream.abort(detail);
    return open.length;
  }

  async drain(server: ClosableServer, plan: ShutdownPlan, logger: AppLogger): Promise<GatewayDrainOutcome> {
    this.draining = true;
    const streams = this.streams.size;
    if (streams) logger.log(`Not ready; letting ${streams} reply streams finish`, 'Shutdown');
    const closed = server.close().then(() => 'closed' as const);
    if ((await Promise.race([closed, sleepUntil(plan.cutoffAt)])) === 'closed') return { streams, aborted: 0 };
    const aborted = this.abortStreams(RESTARTING_DETAIL);
    if (aborted) logger.warn(`Ended ${aborted} reply streams still open as the grace period ends`, 'Shutdown');
    if ((await Promise.race([closed, sleepUntil(plan.abortAt)])) !== 'closed') {
      logger.warn('Closing the connections still open', 'Shutdown');
      server.closeAllConnections();
      await closed;
    }
    return { streams, aborted };
  }
}

/** Drains a running gateway (its Nest application and HTTP server) within the plan. */
export function drainGateway(app: INestApplication, plan: ShutdownPlan, logger: AppLogger): Promise<GatewayDrainOutcome> {
  const server = app.getHttpServer() as HttpServer;
  return app
    .get(GatewayLifecycle)
    .drain({ close: () => app.close(), closeAllConnections: () => server.closeAllConnections() }, plan, logger);
}
