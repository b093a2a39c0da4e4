import type { ReplyEvent } from '@app/contracts/chat';
import { adaptiveFrameMs, DeltaCoalescer, MAX_DELTA_FRAME_MS } from './delta-coalescer';

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
  afterEach(() => {
    out.close();
    jest.useRealTimers();
  });

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

  it("does not change the caller's event when it joins others to it", () => {
    out.send(text('a'));
    const second = text('b');
    out.send(second);
    out.send(text('c'));
    out.flush();
    expect(second).toEqual(text('b'));
    expect(sent).toEqual([text('a'), text('bc')]);
  });
});

describe('adaptiveFrameMs: the frame grows with the replies streaming at once', () => {
  it('is 0 for one reply alone, grows with the load, never beyond one animation frame, and shrinks as replies end', () => {
    const alone = new DeltaCoalescer(() => undefined);
    expect(adaptiveFrameMs()).toBe(0);
    const others = Array.from({ length: 15 }, () => new DeltaCoalescer(() => undefined));
    expect(adaptiveFrameMs()).toBe(2); // 16 replies
    const many = Array.from({ length: 500 }, () => new DeltaCoalescer(() => undefined));
    expect(adaptiveFrameMs()).toBe(MAX_DELTA_FRAME_MS);
    for (const coalescer of [...many, ...others]) coalescer.close();
    alone.close();
    alone.close(); // closing twice counts once
    expect(adaptiveFrameMs()).toBe(0);
  });

  it('under load, a delta that follows another closely waits for the frame and is joined with the next ones', () => {
    jest.useFakeTimers();
    const load = Array.from({ length: 200 }, () => new DeltaCoalescer(() => undefined));
    let clock = 0;
    const sent: ReplyEvent[] = [];
    const out = new DeltaCoalescer(
      (event) => sent.push(event),
      undefined,
      () => clock,
    );
    try {
      const advance = (ms: number) => {
        clock += ms;
        jest.advanceTimersByTime(ms);
      };
      out.send(text('a')); // after a quiet spell: at once
      advance(4);
      out.send(text('b'));
      advance(4);
      out.send(text('c'));
      advance(7);
      expect(sent).toEqual([text('a')]);
      advance(1); // 16 ms after 'a'
      expect(sent).toEqual([text('a'), text('bc')]);
    } finally {
      out.close();
      for (const coalescer of load) coalescer.close();
      jest.useRealTimers();
    }
  });
});
