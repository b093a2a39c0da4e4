import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useModelPhase } from './useModelPhase';

describe('model query phase (section 4)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes idle → personalizing → searching after 2.5 s → thinking after another 2.5 s, and back to idle', () => {
    const { result, rerender } = renderHook(({ loading }) => useModelPhase(loading), { initialProps: { loading: false } });
    expect(result.current).toBe('idle');
    rerender({ loading: true });
    expect(result.current).toBe('personalizing');
    act(() => vi.advanceTimersByTime(2_499));
    expect(result.current).toBe('personalizing');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('searching');
    act(() => vi.advanceTimersByTime(2_500));
    expect(result.current).toBe('thinking');
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe('thinking');
    rerender({ loading: false });
    expect(result.current).toBe('idle');
  });

  it('moves on only while still loading', () => {
    const { result, rerender } = renderHook(({ loading }) => useModelPhase(loading), { initialProps: { loading: true } });
    act(() => vi.advanceTimersByTime(1_000));
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe('idle');
  });
});
