import { deltas, OfflineProvider, titleFrom } from './offline.provider';

describe('the offline model', () => {
  it('titles a conversation from the first sentence, without a hanging word', () => {
    expect(titleFrom('I moved to Lisbon and I am vegetarian. What should I cook tonight?')).toBe('I moved to Lisbon');
    expect(titleFrom('plan a trip to Lisbon')).toBe('Plan a trip to Lisbon');
    expect(titleFrom('Can you help me write a cover letter for a job in Porto?')).toBe('Can you help me write a cover');
    expect(titleFrom('Tell me about the history of the')).toBe('Tell me about the history');
    expect(titleFrom('   ')).toBe('New conversation');
  });

  it('streams deltas that rebuild its answer exactly, naming what it was given', async () => {
    const provider = new OfflineProvider(0);
    const answer = provider.answer('Hi there', 'Persona\n- Lives in Lisbon', [{ kind: 'image', filename: 'leaf.png', dataUrl: 'data:' }]);
    expect(deltas(answer).join('')).toBe(answer);
    expect(answer).toContain('- leaf.png (an image)');
    expect(answer).toContain('What I know about you:\n- Lives in Lisbon');
  });
});
