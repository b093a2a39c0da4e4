import { normalizePhone } from '@app/contracts/sms';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Field } from '../../../../ui/Field';
import { randomDevNumber } from '../../utils/phone';

type PlayedNumberProps = { number: string; onChange: (number: string) => void; children?: ReactNode };

/** The number the development phone plays: typed (checked, in E.164) or a random fictional one; `children` follow in the same form. */
export function PlayedNumber({ number, onChange, children }: PlayedNumberProps) {
  const [draft, setDraft] = useState(number);
  const [problem, setProblem] = useState<string | null>(null);
  const use = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizePhone(draft);
    if (!checked.ok) return setProblem(checked.message);
    setProblem(null);
    setDraft(checked.e164);
    onChange(checked.e164);
  };
  return (
    <form className="form dev-phone__number" onSubmit={use} noValidate>
      <Field label="Play the number" problem={problem}>
        {(control) => <input {...control} type="tel" inputMode="tel" value={draft} onChange={(event) => setDraft(event.target.value)} />}
      </Field>
      <div className="form__actions form__actions--start">
        <button type="submit" className="button button--secondary">
          Use this number
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            const next = randomDevNumber();
            setDraft(next);
            setProblem(null);
            onChange(next);
          }}
        >
          New random number
        </button>
      </div>
      {children}
    </form>
  );
}
