import { AppLogger, planShutdown } from '@app/platform';
import { GatewayLifecycle, RESTARTING_DETAIL, type ClosableServer } from './lifecycle';

const quiet = new AppLogger({ service: 'gateway', level: 'error', format: 'json', sink: () => {} });

/** An HTTP server whose close() resolves when the test says the last connection is over. */
class FakeServer implements ClosableServer {
  readonly steps: string[] = [];
  private over: () => void = () => {};
  private readonly closed = new Promise<void>((resolve) => (this.over = resolve));

  close(): Promise<void> {
    this.steps.push('close');
    return this.closed;
  }
  closeAllConnections(): void {
    this.steps.push('close all connections');
    this.over();
  }
  lastConnectionOver(): void {
    this.over();
  }
}

/** A plan whose deadlines are already past: nothing waits in these tests. */
const overdue = () => planShutdown(1_000, Date.now() - 10_000);

describe('GatewayLifecycle.drain (the gateway on SIGTERM)', () => {
  it('goes not-ready, stops accepting, and is done as soon as the connections are over', async () => {
    const lifecycle = new GatewayLifecycle();
    const server = new FakeServer();
    server.lastConnectionOver();
    expect(lifecycle.isDraining).toBe(false);
    expect(await lifecycle.drain(server, planShutdown(30_000), quiet)).toEqual({ streams: 0, aborted: 0 });
    expect(lifecycle.isDraining).toBe(true);
    expect(server.steps).toEqual(['close']);
  });

  it('lets open reply streams finish before the cutoff', async () => {
    const lifecycle = new GatewayLifecycle();
    const server = new FakeServer();
    const aborted: string[] = [];
    const untrack = lifecycle.track({ abort: (detail) => aborted.push(detail) });
    const drained = lifecycle.drain(server, planShutdown(30_000), quiet);
    untrack(); // the reply ended on its own
    server.lastConnectionOver();
    expect(await drained).toEqual({ streams: 1, aborted: 0 });
    expect(aborted).toEqual([]);
  });

  it('at the cutoff ends the streams still open (error + done), which ends their connections', async () => {
    const lifecycle = new GatewayLifecycle();
    const server = new FakeServer();
    const aborted: string[] = [];
    for (let i = 0; i < 2; i++) {
      const untrack = lifecycle.track({
        abort: (detail) => {
          aborted.push(detail);
          untrack();
          if (lifecycle.openStreams === 0) server.lastConnectionOver();
        },
      });
    }
    expect(await lifecycle.drain(server, overdue(), quiet)).toEqual({ streams: 2, aborted: 2 });
    expect(aborted).toEqual([RESTARTING_DETAIL, RESTARTING_DETAIL]);
    expect(server.steps).toEqual(['close']);
  });

  it('closes the connections that are still open at the end', async () => {
    const lifecycle = new GatewayLifecycle();
    const server = new FakeServer(); // a request that never ends
    expect(await lifecycle.drain(server, overdue(), quiet)).toEqual({ streams: 0, aborted: 0 });
    expect(server.steps).toEqual(['close', 'close all connections']);
  });
});
