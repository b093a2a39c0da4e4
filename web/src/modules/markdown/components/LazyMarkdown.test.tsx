import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LazyMarkdown } from './LazyMarkdown';

describe('LazyMarkdown', () => {
  it('shows the text at once, as it is, then rendered once the renderer has loaded', async () => {
    const { container } = render(<LazyMarkdown text={'Some **bold** words'} />);
    expect(container.textContent).toContain('Some **bold** words');
    expect((await screen.findByText('bold')).tagName).toBe('STRONG');
    expect(container.textContent).toBe('Some bold words');
  });
});
