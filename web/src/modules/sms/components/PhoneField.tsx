import { Field } from '../../../ui/Field';

type PhoneFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Why the number is not accepted, shown under the field. */
  problem?: string | null;
  hint?: string;
  autoFocus?: boolean;
};

/** A labelled phone number field with its hint and its problem announced. */
export function PhoneField({ label, value, onChange, problem, hint, autoFocus }: PhoneFieldProps) {
  return (
    <Field label={label} hint={hint} problem={problem}>
      {(control) => (
        <input
          {...control}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={value}
          autoFocus={autoFocus}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
