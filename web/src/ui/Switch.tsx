import { startTransition, useOptimistic, type ReactNode } from 'react';

type SwitchProps = {
  label: string;
  checked: boolean;
  disabled?: boolean;
  /** The change; while the promise it returns is pending the switch shows the asked-for state. */
  onChange: (checked: boolean) => void | Promise<unknown>;
  children?: ReactNode;
};

/**
 * An on/off setting: a checkbox in the switch role, with its label (and anything shown beside it).
 * The new state shows in the same frame as the click (React's optimistic state), not only once the
 * change has reached the query cache a task later: a controlled checkbox would otherwise flick back.
 */
export function Switch({ label, checked, disabled, onChange, children }: SwitchProps) {
  const [shown, show] = useOptimistic(checked);
  const change = (next: boolean) =>
    startTransition(async () => {
      show(next);
      await onChange(next);
      // TanStack Query tells its observers on the next task: wait for it, or the old state shows for a frame.
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  return (
    <label className="switch">
      <input type="checkbox" role="switch" checked={shown} disabled={disabled} onChange={(event) => change(event.target.checked)} />
      <span>{label}</span>
      {children}
    </label>
  );
}
