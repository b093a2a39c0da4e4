import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { linkCitations } from '../../utils/citations';
import { Sources } from './Sources';

const citations = [
  { n: 1, title: 'Tram 28', url: 'https://trams.example/28', site: 'trams.example' },
  { n: 2, title: 'Carris "official"', url: 'https://carris.example/a b(c)', site: 'carris.example' },
];

describe('a reply with sources', () => {
  it('lists them numbered under the reply, each opening in a new tab', () => {
    render(<Sources citations={citations} />);
    const list = within(screen.getByRole('region', { name: 'Sources' })).getByRole('list');
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target')])).toEqual([
      ['Tram 28', 'https://trams.example/28', '_blank'],
      ['Carris "official"', 'https://carris.example/a b(c)', '_blank'],
    ]);
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('value')),
    ).toEqual(['1', '2']);
  });

  it('turns the numbered markers into links to their sources, and leaves other brackets alone', () => {
    expect(linkCitations('Runs daily [1], see [2]; not [3] nor [x] nor [1](http://a).', citations)).toBe(
      'Runs daily [\\[1\\]](https://trams.example/28 "Tram 28"), see [\\[2\\]](https://carris.example/a%20b%28c%29 "Carris \'official\'"); not [3] nor [x] nor [1](http://a).',
    );
    expect(linkCitations('No sources [1].', undefined)).toBe('No sources [1].');
  });
});
