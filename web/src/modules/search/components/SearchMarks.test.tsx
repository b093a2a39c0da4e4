import { searchQuery } from '@app/contracts/chat/search-terms';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Markdown } from '../../markdown/components/Markdown';
import { MarkedText, SearchMarks } from './SearchMarks';

const marks = (container: HTMLElement) => [...container.querySelectorAll('mark.search-mark')].map((m) => m.textContent);

describe('SearchMarks', () => {
  it("marks the query's words as the server's snippets do: prefixes, any accent or case", () => {
    const { container } = render(
      <SearchMarks terms={searchQuery('creme axol').terms}>
        <MarkedText text="Our axolotl likes Crème brûlée; axolotls too. Not a cream." />
      </SearchMarks>,
    );
    expect(marks(container)).toEqual(['axolotl', 'Crème', 'axolotls']);
    expect(container.textContent).toBe('Our axolotl likes Crème brûlée; axolotls too. Not a cream.');
  });

  it('marks the words inside rendered Markdown (emphasis, lists, code), and nothing without a search', () => {
    const text = 'A **bold axolotl**, then:\n\n- one axolotl\n- `axolotl()` in code\n';
    const { container, rerender } = render(
      <SearchMarks terms={searchQuery('axolotl').terms}>
        <Markdown text={text} />
      </SearchMarks>,
    );
    expect(marks(container)).toEqual(['axolotl', 'axolotl', 'axolotl']);
    expect(container.querySelector('strong mark')?.textContent).toBe('axolotl');
    rerender(
      <SearchMarks terms={null}>
        <Markdown text={text} />
      </SearchMarks>,
    );
    expect(container.querySelectorAll('mark')).toHaveLength(0);
  });
});
