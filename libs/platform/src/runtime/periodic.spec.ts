import { runPeriodically } from './periodic';

describe('runPeriodically', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs the work every period, at the start too when asked, and no more once stopped', async () => {
    const logger = { error: jest.fn() };
    let runs = 0;
    const sweep = runPeriodically(async () => void runs++, 1_000, logger, 'Sweep', { immediately: true });
    expect(runs).toBe(1);
    await jest.advanceTimersByTimeAsync(2_500);
    expect(runs).toBe(3);
    sweep.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs a failed run under its context and goes on with the next', async () => {
    const logger = { error: jest.fn() };
    const failure = new Error('database is down');
    let runs = 0;
    const sweep = runPeriodically(
      async () => {
        runs++;
        if (runs === 1) throw failure;
      },
      1_000,
      logger,
      'Sweep',
    );
    expect(runs).toBe(0);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(2);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(failure, 'Sweep');
    sweep.stop();
  });
});
