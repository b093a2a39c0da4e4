import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field } from './Field';

const describedBy = (element: HTMLElement) => element.getAttribute('aria-describedby')?.split(' ') ?? [];

describe('Field', () => {
  it('labels its control and leaves it undescribed and valid when there is neither hint nor problem', () => {
    render(<Field label="Title">{(control) => <input {...control} />}</Field>);
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input.closest('.field')?.querySelector('label')?.htmlFor).toBe(input.id);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('describes the control by its hint', () => {
    render(
      <Field label="Number of uses" hint="From 1 to 1000">
        {(control) => <input type="number" {...control} />}
      </Field>,
    );
    const input = screen.getByRole('spinbutton', { name: 'Number of uses' });
    expect(describedBy(input)).toEqual([screen.getByText('From 1 to 1000').id]);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });

  it('announces the problem, marks the control invalid and describes it by the hint then the problem', () => {
    render(
      <Field label="Expires after" hint="How long the link works" problem="Choose a duration.">
        {(control) => (
          <select {...control}>
            <option>1 day</option>
          </select>
        )}
      </Field>,
    );
    const select = screen.getByRole('combobox', { name: 'Expires after' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Choose a duration.');
    expect(alert.className).toBe('notice notice--error');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(select)).toEqual([screen.getByText('How long the link works').id, alert.id]);
  });

  it('gives each field its own ids, and works for a textarea with a label that is not plain text', () => {
    render(
      <>
        <Field label="First" problem="Too short.">
          {(control) => <textarea {...control} />}
        </Field>
        <Field
          label={
            <>
              Type <strong>DELETE</strong> to confirm
            </>
          }
          problem="Type the word."
        >
          {(control) => <input {...control} />}
        </Field>
      </>,
    );
    const first = screen.getByRole('textbox', { name: 'First' });
    const second = screen.getByRole('textbox', { name: 'Type DELETE to confirm' });
    expect(first.id).not.toBe(second.id);
    const [firstAlert, secondAlert] = screen.getAllByRole('alert');
    expect(describedBy(first)).toEqual([firstAlert.id]);
    expect(describedBy(second)).toEqual([secondAlert.id]);
    expect(firstAlert.id).not.toBe(secondAlert.id);
  });
});
