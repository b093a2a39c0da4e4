import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

describe('markdown rendering', () => {
  it('renders tables, lists and code blocks with a copy button; links open in a new tab', () => {
    const text = [
      'Some **bold** and a [link](https://example.com).',
      '',
      '| a | b |',
      '| - | - |',
      '| 1 | 2 |',
      '',
      '- one',
      '- two',
      '',
      '```js',
      'const x = 1;',
      '```',
    ].join('\n');
    const { container } = render(<Markdown text={text} />);
    const link = screen.getByRole('link', { name: 'link' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(container.querySelector('table th')?.textContent).toBe('a');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('pre code')?.textContent).toBe('const x = 1;');
    expect(screen.getByRole('button', { name: 'Copy js' })).toBeTruthy();
  });

  it('never lets HTML or javascript: links through', () => {
    const { container } = render(
      <Markdown text={'<img src=x onerror=alert(1)> and [bad](javascript:alert(1)) <script>alert(2)</script>'} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});
