import { isDeltaEvent, ReplyEventSchema } from './index';

describe('isDeltaEvent: the hand-written check of the reply stream hot path', () => {
  const samples: unknown[] = [
    { event: 'text', data: { delta: 'Hello' } },
    { event: 'reasoning', data: { delta: '' } },
    { event: 'text', data: { delta: 'a\nb "quoted" é 😀' } },
    { event: 'text', data: { delta: 5 } },
    { event: 'text', data: {} },
    { event: 'text', data: null },
    { event: 'text' },
    { event: 'text', data: { delta: 'x', extra: 1 } },
    { event: 'text', data: { delta: 'x' }, extra: 1 },
    { event: 'done', data: {} },
    { event: 'phase', data: { phase: 'thinking' } },
    { event: 'error', data: { detail: 'x' } },
    { event: 'Text', data: { delta: 'x' } },
    null,
    'text',
    [],
  ];

  it('accepts exactly the text and reasoning deltas the schema accepts, unchanged', () => {
    for (const sample of samples) {
      const parsed = ReplyEventSchema.safeParse(sample);
      const delta = parsed.success && (parsed.data.event === 'text' || parsed.data.event === 'reasoning');
      // What the check passes, the schema passes as it is (nothing stripped); the rest goes to the schema.
      if (isDeltaEvent(sample)) expect(parsed.success && parsed.data).toEqual(sample);
      else if (delta) expect(JSON.stringify(parsed.data)).not.toBe(JSON.stringify(sample));
    }
    expect(samples.filter(isDeltaEvent)).toHaveLength(3);
  });
});
