import type { RpcErrorShape } from '@app/contracts';
import { AppLogger } from '../logging/logger';
import { drainService, ServiceLifecycle, type DrainableServer } from './lifecycle';
import { planShutdown } from './shutdown';

/** A server whose in-flight work finishes when the script says: at which deadline `idle` is asked. */
class FakeServer implements DrainableServer {
  readonly steps: string[] = [];
  inFlightCount: number;
  aborted?: RpcErrorShape;

  constructor(
    inFlight: number,
    /** The deadlines by which the work is done (by their name in the plan), else still running. */
    private readonly doneBy: 'cutoff' | 'abort' | 'never',
    private readonly plan: { cutoffAt: number; abortAt: number },
    private readonly lifecycle: ServiceLifecycle,
  ) {
    this.inFlightCount = inFlight;
  }

  async stopAccepting(): Promise<void> {
    this.steps.push(`stop accepting (stopping=${this.lifecycle.isStopping})`);
  }

  async idle(deadline: number): Promise<boolean> {
    const name = deadline === this.plan.cutoffAt ? 'cutoff' : deadline === this.plan.abortAt ? 'abort' : String(deadline);
    this.steps.push(`wait until ${name} (cut off=${this.lifecycle.cutoff.aborted})`);
    const done = this.doneBy === name || (this.doneBy === 'abort' && name === 'abort');
    if (done) this.inFlightCount = 0;
    return this.inFlightCount === 0;
  }

  abortInFlight(shape: RpcErrorShape): number {
    this.steps.push('abort in flight');
    this.aborted = shape;
    const n = this.inFlightCount;
    this.inFlightCount = 0;
    return n;
  }
}

const quiet = new AppLogger({ service: 'chat', level: 'error', format: 'json', sink: () => {} });

describe('drainService (what a service does on SIGTERM)', () => {
  const plan = planShutdown(30_000, 1_000_000);

  it('an idle service stops taking requests and is done at once, without waiting for any deadline', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = new FakeServer(0, 'never', plan, lifecycle);
    expect(await drainService('chat', server, lifecycle, plan, quiet)).toEqual({ inFlight: 0, aborted: 0 });
    expect(server.steps).toEqual(['stop accepting (stopping=true)']);
    expect(lifecycle.cutoff.aborted).toBe(false);
  });

  it('lets the work in flight finish within the grace period, without cutting anything', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = new FakeServer(3, 'cutoff', plan, lifecycle);
    expect(await drainService('chat', server, lifecycle, plan, quiet)).toEqual({ inFlight: 3, aborted: 0 });
    expect(server.steps).toEqual(['stop accepting (stopping=true)', 'wait until cutoff (cut off=false)']);
    expect(lifecycle.cutoff.aborted).toBe(false);
  });

  it('at the cutoff tells the handlers to wrap up, and gives them until abortAt', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = new FakeServer(2, 'abort', plan, lifecycle);
    expect(await drainService('chat', server, lifecycle, plan, quiet)).toEqual({ inFlight: 2, aborted: 0 });
    expect(server.steps).toEqual([
      'stop accepting (stopping=true)',
      'wait until cutoff (cut off=false)',
      'wait until abort (cut off=true)',
    ]);
    expect(server.aborted).toBeUndefined();
  });

  it('ends what is still running at abortAt with a 503 that says the service restarted', async () => {
    const lifecycle = new ServiceLifecycle();
    const server = new FakeServer(4, 'never', plan, lifecycle);
    expect(await drainService('chat', server, lifecycle, plan, quiet)).toEqual({ inFlight: 4, aborted: 4 });
    expect(server.steps).toEqual([
      'stop accepting (stopping=true)',
      'wait until cutoff (cut off=false)',
      'wait until abort (cut off=true)',
      'abort in flight',
    ]);
    expect(server.aborted).toEqual({
      status: 503,
      code: 'unavailable',
      detail: 'The chat service restarted before it could finish; please try again',
    });
  });
});

describe('planShutdown', () => {
  it('keeps a fifth of the grace period (0.5 to 5 s) for ending the work and closing, inside the grace period', () => {
    expect(planShutdown(30_000, 0)).toEqual({ startedAt: 0, graceMs: 30_000, cutoffAt: 25_000, abortAt: 27_500, exitAt: 30_000 });
    expect(planShutdown(4_000, 0)).toEqual({ startedAt: 0, graceMs: 4_000, cutoffAt: 3_200, abortAt: 3_600, exitAt: 4_000 });
    expect(planShutdown(1_000, 0)).toMatchObject({ cutoffAt: 500, abortAt: 750, exitAt: 1_000 });
    expect(planShutdown(600_000, 0)).toMatchObject({ cutoffAt: 595_000, abortAt: 597_500 });
  });
});
