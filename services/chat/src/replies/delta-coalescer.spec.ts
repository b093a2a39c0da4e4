import type { ReplyEvent } from '@app/contracts/chat';
import { DeltaCoalescer } from './delta-coalescer';

const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } });
const reasoning = (delta: string): ReplyEvent => ({ event: 'reasoning', data: { delta } });

describe('DeltaCoalescer', () => {
  let clock: number;
  let sent: ReplyEvent[];
  let out: DeltaCoalescer;

  beforeEach(() => {
    jest.useFakeTimers();
    clock = 0;
    sent = [];
    out = new DeltaCoalescer(
      (event) => sent.push(event),
      5,
      () => clock,
    );
  });
  afterEach(() => jest.useRealTimers());

  const advance = (ms: number) => {
    clock += ms;
    jest.advanceTimersByTime(ms);
  };

  it('sends a delta after a quiet spell at once: tokens far apart go one by one, without waiting', () => {
    for (const word of ['a', 'b', 'c']) {
      out.send(text(word));
      expect(sent.at(-1)).toEqual(text(word));
      advance(25);
    }
    expect(sent).toEqual([text('a'), text('b'), text('c')]);
  });

  it('joins the deltas that follow closely into one event, sent at most a frame after the first of them', () => {
    out.send(text('He'));
    for (const part of ['l', 'l', 'o']) {
      advance(1);
      out.send(text(part));
    }
    expect(sent).toEqual([text('He')]);
    advance(2); // 5 ms after 'He' was sent
    expect(sent).toEqual([text('He'), text('llo')]);
    // 500 deltas a second for 100 ms: about one event per 5 ms, the text whole and in order.
    for (let i = 0; i < 50; i++) {
      advance(2);
      out.send(text(`${i},`));
    }
    out.flush();
    expect(sent.length).toBeLessThanOrEqual(2 + 21);
    expect(sent.map((e) => (e.event === 'text' ? e.data.delta : '')).join('')).toBe(
      `Hello${Array.from({ length: 50 }, (_, i) => `${i},`).join('')}`,
    );
  });

  it('keeps the order: another event, or a change between text and reasoning, sends what is held first', () => {
    out.send(reasoning('think'));
    out.send(reasoning('ing'));
    out.send(text('An'));
    out.send(text('swer'));
    out.send({ event: 'phase', data: { phase: 'searching' } });
    expect(sent).toEqual([reasoning('think'), reasoning('ing'), text('Answer'), { event: 'phase', data: { phase: 'searching' } }]);
    out.send(text('x'));
    out.send(text('y'));
    out.flush();
    expect(sent.slice(4)).toEqual([text('xy')]);
    advance(100);
    expect(sent).toHaveLength(5);
  });
});
