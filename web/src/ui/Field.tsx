import { useId, type ReactNode } from 'react';

/** What the control of a field spreads onto itself: its id (the label's target), its description and validity. */
export type FieldControlProps = {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
};

export type FieldProps = {
  label: ReactNode;
  /** Shown under the control, and read as its description. */
  hint?: ReactNode;
  /** Why the value is not accepted: shown under the hint, announced, and the control marked invalid. */
  problem?: ReactNode;
  /** The control (input, select or textarea, and anything that goes with it such as a datalist). */
  children: (control: FieldControlProps) => ReactNode;
};

/** A labelled form control with its hint and its problem, both in the control's description. */
export function Field({ label, hint, problem, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemId = `${id}-problem`;
  const described = [hint ? hintId : null, problem ? problemId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': described, 'aria-invalid': problem ? true : undefined })}
      {hint && (
        <small className="muted" id={hintId}>
          {hint}
        </small>
      )}
      {problem && (
        <small className="notice notice--error" id={problemId} role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}
