import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

describe('a component loaded on demand', () => {
  it('renders at once, without its fallback, when its code was preloaded', async () => {
    const hello = preloadable(async () => Hello);
    await hello.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <hello.Component name="Ada" />
      </Suspense>,
    );
    // Synchronously in the first commit: no fallback in between.
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('suspends until its code is there when it was not, and loads it once', async () => {
    let loads = 0;
    const hello = preloadable(async () => {
      loads += 1;
      return Hello;
    });
    render(
      <Suspense fallback={<p>Loading</p>}>
        <hello.Component name="Grace" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    expect(await screen.findByText('Hello Grace')).toBeTruthy();
    await hello.preload();
    expect(loads).toBe(1);
    expect(hello.isLoaded()).toBe(true);
  });

  it('asks for its code again after a failed load', async () => {
    let fail = true;
    const hello = preloadable(async () => {
      if (fail) throw new Error('chunk failed');
      return Hello;
    });
    await expect(hello.preload()).rejects.toThrow('chunk failed');
    fail = false;
    await hello.preload();
    expect(hello.isLoaded()).toBe(true);
  });
});
