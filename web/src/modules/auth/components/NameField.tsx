import { Field } from '../../../ui/Field';

/** The longest name the profile accepts (the gateway's onboarding profile body). */
const NAME_MAX = 100;

type NameFieldProps = {
  value: string;
  onChange: (value: string) => void;
  /** `given-name` where the assistant asks what to call the user, `name` for the profile's full name. */
  autoComplete: 'name' | 'given-name';
};

/** The user's name, as the onboarding step and the profile settings both ask for it. */
export function NameField({ value, onChange, autoComplete }: NameFieldProps) {
  return (
    <Field label="Name">
      {(control) => (
        <input
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={autoComplete}
          maxLength={NAME_MAX}
          required
        />
      )}
    </Field>
  );
}
