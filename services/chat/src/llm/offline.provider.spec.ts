import { anLlmRequest, collect } from '../testing/builders';
import type { LlmEvent } from './llm-provider';
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

  describe('explicit requests for a tool offered', () => {
    const clock = { name: 'current_time', description: 'The time', parameters: { type: 'object' } };
    const textOf = (events: LlmEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.delta] : [])).join('');

    it('calls the tool, then answers from its result', async () => {
      const provider = new OfflineProvider(0);
      const asked = await collect(
        provider.stream(anLlmRequest({ tools: [clock], turns: [{ role: 'user', content: 'What time is it?' }] })),
      );
      expect(asked.slice(1)).toEqual([
        { type: 'tool_call', call: { id: 'offline_call_current_time', name: 'current_time', arguments: '{}' } },
      ]);

      const call = { id: 'offline_call_current_time', name: 'current_time', arguments: '{}' };
      const answered = await collect(
        provider.stream(
          anLlmRequest({
            tools: [clock],
            turns: [
              { role: 'user', content: 'What time is it?' },
              { role: 'tool_calls', content: '', calls: [call] },
              { role: 'tool_result', callId: call.id, name: call.name, output: '{"local":"Friday 27 November 2026 at 09:00"}' },
            ],
          }),
        ),
      );
      expect(answered.some((e) => e.type === 'tool_call')).toBe(false);
      expect(textOf(answered)).toBe('It is Friday 27 November 2026 at 09:00 (UTC).');
    });

    it("passes a tool's error on as it is, and never calls a tool it was not offered", async () => {
      const provider = new OfflineProvider(0);
      const notOffered = await collect(provider.stream(anLlmRequest({ turns: [{ role: 'user', content: 'What time is it?' }] })));
      expect(notOffered.some((e) => e.type === 'tool_call')).toBe(false);
      const failed = await collect(
        provider.stream(
          anLlmRequest({
            tools: [clock],
            turns: [
              { role: 'user', content: 'What time is it?' },
              { role: 'tool_result', callId: 'c', name: 'current_time', output: '{"error":"The clock is away."}' },
            ],
          }),
        ),
      );
      expect(textOf(failed)).toBe('I tried current_time but it did not work: The clock is away.');
    });
  });
});
