import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HighlightedText } from './HighlightedText';
import { UsageBar } from './UsageBar';

describe('HighlightedText', () => {
  it('puts the matched parts in <mark>, the rest as plain text', () => {
    const { container } = render(
      <p>
        <HighlightedText
          body="Pizza on Friday, pizza again Sunday"
          highlights={[
            { start: 17, end: 22 },
            { start: 0, end: 5 },
          ]}
        />
      </p>,
    );
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Pizza', 'pizza']);
    expect(container.textContent).toBe('Pizza on Friday, pizza again Sunday');
  });

  it('marks nothing for empty or out-of-range highlights, and escapes markup', () => {
    const { container } = render(
      <p>
        <HighlightedText body="<b>bold</b> & co" highlights={[{ start: 40, end: 50 }]} />
      </p>,
    );
    expect(container.querySelectorAll('mark')).toHaveLength(0);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<b>bold</b> & co');
  });
});

describe('UsageBar', () => {
  it('is a progress bar named by its figures', () => {
    render(<UsageBar used={12} allowance={100} period="2025-09" />);
    const bar = screen.getByRole('progressbar', { name: '12 of 100 texts used in September 2025' });
    expect(bar.getAttribute('aria-valuenow')).toBe('12');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect((bar.firstChild as HTMLElement).style.width).toBe('12%');
    expect(screen.queryByText(/close to this month/)).toBeNull();
  });

  it('warns near the allowance and says when it is reached, never past 100 %', () => {
    const { rerender } = render(<UsageBar used={85} allowance={100} period="2025-09" />);
    expect(screen.getByText('You are close to this month’s allowance.')).toBeTruthy();
    rerender(<UsageBar used={130} allowance={100} period="2025-09" />);
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    expect((bar.firstChild as HTMLElement).style.width).toBe('100%');
    expect(screen.getByText(/reached this month’s allowance/)).toBeTruthy();
  });

  it('copes with no allowance and an odd period', () => {
    render(<UsageBar used={0} allowance={0} period="soon" />);
    expect(screen.getByRole('progressbar', { name: '0 of 0 texts used this month' })).toBeTruthy();
  });
});
