import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Switch } from './Switch';

type Pending = { resolve: () => void };

/** A setting whose stored value changes only later (as the query cache does), or not at all (a refusal). */
function Setting({ pending, store }: { pending: Pending[]; store: boolean }) {
  const [stored, setStored] = useState(false);
  const change = (on: boolean) =>
    new Promise<void>((resolve) => {
      pending.push({
        resolve: () => {
          if (store) setTimeout(() => setStored(on), 0);
          resolve();
        },
      });
    });
  return <Switch label="Insider mode" checked={stored} onChange={change} />;
}

describe('Switch', () => {
  it('shows the asked-for state in the same frame as the click and keeps it until the stored value follows', async () => {
    const pending: Pending[] = [];
    render(<Setting pending={pending} store />);
    const toggle = screen.getByRole('switch', { name: 'Insider mode' }) as HTMLInputElement;
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(true);
    pending[0].resolve();
    await waitFor(() => expect(pending).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(toggle.checked).toBe(true);
  });

  it('goes back to the stored value when the change is refused', async () => {
    const pending: Pending[] = [];
    render(<Setting pending={pending} store={false} />);
    const toggle = screen.getByRole('switch', { name: 'Insider mode' }) as HTMLInputElement;
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(true);
    pending[0].resolve();
    await waitFor(() => expect(toggle.checked).toBe(false));
  });
});
