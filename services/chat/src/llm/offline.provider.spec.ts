import { anLlmRequest, collect } from '../testing/chat.fake';
import { deltas, OfflineProvider } from './offline.provider';

describe('the offline model', () => {
  it('streams deltas that rebuild its answer exactly, naming what it was given', async () => {
    const provider = new OfflineProvider(0);
    const answer = provider.answer('Hi there', 'Persona\n- Lives in Lisbon', [{ kind: 'image', filename: 'leaf.png', dataUrl: 'data:' }]);
    expect(deltas(answer).join('')).toBe(answer);
    expect(answer).toContain('- leaf.png (an image)');
    expect(answer).toContain('What I know about you:\n- Lives in Lisbon');
  });

  it('describes itself as offline, serving one model it names in every reply', async () => {
    const provider = new OfflineProvider(0);
    expect(provider.describe()).toEqual({ id: 'offline', label: 'Offline model', offline: true, fixedModel: 'offline' });
    const events = await collect(provider.stream(anLlmRequest({ model: 'offline', system: '' })));
    expect(events[0]).toEqual({ type: 'meta', requestId: null, model: 'offline' });
    expect(
      events
        .slice(1)
        .map((e) => (e.type === 'text' ? e.delta : ''))
        .join(''),
    ).toBe(provider.answer('Hi', ''));
  });

  it('stops streaming once its request is aborted, without failing', async () => {
    const provider = new OfflineProvider(0);
    const stop = new AbortController();
    const texts: string[] = [];
    for await (const event of provider.stream(anLlmRequest({ model: 'offline', system: '', signal: stop.signal }))) {
      if (event.type === 'text') texts.push(event.delta);
      stop.abort();
    }
    expect(texts).toEqual([]);
  });

  it('titles by the same rule it answers with', async () => {
    expect(await new OfflineProvider(0).complete({ prompt: 'I moved to Lisbon and I am vegetarian. What should I cook?' })).toBe(
      'I moved to Lisbon',
    );
  });
});
