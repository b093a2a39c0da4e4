import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { startVersionCheck } from './useVersionCheck';

describe('version check (section 4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every 60 s without caching and reloads when the commit differs from the stored one', async () => {
    let commit = 'one';
    const api = mockFetch({ 'GET /api/v1/version/commit': () => json(200, { commit }) });
    const reload = vi.fn();
    const stop = startVersionCheck(reload);
    await vi.advanceTimersByTimeAsync(0);
    expect(localStorage.getItem('versionHash')).toBe('one');
    expect(api.fetchMock.mock.calls[0][1]).toMatchObject({ cache: 'no-store' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.calls).toHaveLength(2);
    expect(reload).not.toHaveBeenCalled();
    commit = 'two';
    await vi.advanceTimersByTimeAsync(59_999);
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('versionHash')).toBe('two');
    stop();
  });

  it('logs and ignores a failed check', async () => {
    mockFetch({ 'GET /api/v1/version/commit': () => json(503, { detail: 'down' }) });
    const reload = vi.fn();
    const stop = startVersionCheck(reload);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reload).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalledWith('Version check failed', expect.anything());
    stop();
  });
});
