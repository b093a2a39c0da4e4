import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { replyDraft } from '../../../../test/builders';
import type { ReplyDraft } from '../../state/replyStore';
import { AssistantMessage } from './AssistantMessage';

const draft = replyDraft;
const show = (value: ReplyDraft) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <AssistantMessage draft={value} busy />
    </QueryClientProvider>,
  );

describe('a generated image while the reply streams (section 3: 3 partial slots)', () => {
  it('shows nothing before the first partial preview', () => {
    show(draft({}));
    expect(screen.queryByRole('list', { name: 'Image being generated' })).toBeNull();
  });

  it('shows the partials in three slots, the empty ones waiting', () => {
    show(draft({ partialImages: ['data:image/png;base64,AA', 'data:image/png;base64,BB', null] }));
    const slots = screen.getByRole('list', { name: 'Image being generated' });
    expect(within(slots).getAllByRole('listitem')).toHaveLength(3);
    expect(within(slots).getByRole('img', { name: 'Preview 2 of the image being generated' }).getAttribute('src')).toBe(
      'data:image/png;base64,BB',
    );
    expect(within(slots).getByRole('status').textContent).toBe('Preview 3 on its way');
  });

  it('replaces the slots with the stored image once it arrives', () => {
    show(draft({ partialImages: ['data:,a', 'data:,b', 'data:,c'], images: [{ object_store_object_id: 'f1', mime_type: 'image/png' }] }));
    expect(screen.queryByRole('list', { name: 'Image being generated' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Generated images' })).toBeTruthy();
  });
});

describe('a tool running while the reply streams', () => {
  it("shows the tool's own line, even after some text came", () => {
    show(draft({ text: 'Let me check. ', serverPhase: 'tool', toolLabel: 'Setting a reminder' }));
    expect(screen.getByRole('status').textContent).toBe('Setting a reminder…');
  });

  it('goes back to the usual phases once the model writes again', () => {
    show(draft({ serverPhase: 'thinking', toolLabel: null }));
    expect(screen.queryByText('Setting a reminder…')).toBeNull();
  });
});
