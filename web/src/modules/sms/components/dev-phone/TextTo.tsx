import { Field } from '../../../../ui/Field';

type TextToProps = {
  to: string;
  problem: string | null;
  destinations: { value: string; label: string }[];
  onChange: (to: string) => void;
};

/** Whom the development phone texts: the assistant's number, or a group text's number. */
export function TextTo({ to, problem, destinations, onChange }: TextToProps) {
  return (
    <Field label="Text to" hint={problem ? undefined : 'The assistant’s number, or a group text’s number.'} problem={problem}>
      {(control) => (
        <>
          <input
            {...control}
            type="tel"
            inputMode="tel"
            list={`${control.id}-known`}
            value={to}
            placeholder="The assistant's number"
            onChange={(event) => onChange(event.target.value)}
          />
          <datalist id={`${control.id}-known`}>
            {destinations.map((d) => (
              <option key={d.value} value={d.value} label={d.label} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
