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

  it('renders a task list item as its box and its words on one line, without a literal "[ ]"', () => {
    const { container } = render(<Markdown text={'- [ ] Buy milk\n- [x] Write **tests**\n\n* [ ] loose\n\n* [x] tasks'} />);
    const tasks = container.querySelectorAll('li.task');
    expect(tasks).toHaveLength(4);
    expect(container.textContent).not.toMatch(/\[[ x]\]/);
    // Tight: the box and the words are the item's own children (no paragraph of "[ ]" before them).
    expect(tasks[0].firstElementChild?.tagName).toBe('INPUT');
    expect(tasks[0].querySelector('p')).toBeNull();
    expect(tasks[0].textContent).toBe('Buy milk');
    expect((tasks[1].querySelector('input') as HTMLInputElement).checked).toBe(true);
    // Loose: the box opens the item's paragraph.
    expect(tasks[2].querySelector('p')?.firstElementChild?.tagName).toBe('INPUT');
    expect(container.querySelectorAll('input[type=checkbox]')).toHaveLength(4);
  });

  it('reads $…$, \\(…\\), \\[…\\] and $$…$$ as formulas, and leaves prices, escaped dollars and code alone', () => {
    const { container } = render(
      <Markdown
        text={[
          'Inline $x^2$, \\(y_1\\) and $$\\frac{a}{b}$$.',
          '',
          '\\[\\sum_i i\\]',
          '',
          '$$',
          'E = mc^2',
          '$$',
          '',
          'It costs $5 and $10, or $5-$10; US$5; \\$x\\$ and `$z$`.',
        ].join('\n')}
      />,
    );
    const formulas = [...container.querySelectorAll('.math')].map((node) => [node.tagName, node.className, node.textContent]);
    expect(formulas).toEqual([
      ['SPAN', 'math math--inline', 'x^2'],
      ['SPAN', 'math math--inline', 'y_1'],
      ['SPAN', 'math math--display', '\\frac{a}{b}'],
      ['DIV', 'math math--display', '\\sum_i i'],
      ['DIV', 'math math--display', 'E = mc^2'],
    ]);
    expect(container.querySelectorAll('p')[1].textContent).toBe('It costs $5 and $10, or $5-$10; US$5; $x$ and $z$.');
  });

  it('numbers footnotes in the order they are referred to and lists them at the end; an unknown one stays text', () => {
    const { container } = render(
      <Markdown text={'B[^b] then A[^a] and [^none].\n\n[^a]: Note A.\n[^b]: Note *B*.\n[^c]: Never referred to.'} />,
    );
    const references = [...container.querySelectorAll('sup a')].map((a) => a.textContent);
    expect(references).toEqual(['1', '2']);
    expect(container.querySelector('p')?.textContent).toBe('B1 then A2 and [^none].');
    const notes = [...container.querySelectorAll('section.footnotes li')].map((li) => li.textContent);
    expect(notes).toEqual(['Note B. ↩', 'Note A. ↩']);
    const first = container.querySelector('sup a')!;
    expect(container.querySelector(`[id="${first.getAttribute('href')!.slice(1)}"]`)?.textContent).toBe('Note B. ↩');
  });
});
