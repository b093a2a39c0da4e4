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

  it("a page that is an older build than the server's (a shell the worker kept) reloads at once, then at most every 30 s", async () => {
    sessionStorage.clear();
    localStorage.setItem('versionHash', 'two');
    mockFetch({ 'GET /api/v1/version/commit': () => json(200, { commit: 'two' }) });
    const reload = vi.fn();
    // Reloaded for build two, but served build one's stored shell.
    let stop = startVersionCheck(reload, 60_000, 'one');
    await vi.advanceTimersByTimeAsync(0);
    expect(reload).toHaveBeenCalledTimes(1);
    stop();
    // The next load is the stored shell again, right after: no reload loop; the next check retries.
    stop = startVersionCheck(reload, 60_000, 'one');
    await vi.advanceTimersByTimeAsync(0);
    expect(reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reload).toHaveBeenCalledTimes(2);
    stop();
    // The server's build: nothing to do.
    await vi.advanceTimersByTimeAsync(30_000);
    stop = startVersionCheck(reload, 60_000, 'two');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reload).toHaveBeenCalledTimes(2);
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
