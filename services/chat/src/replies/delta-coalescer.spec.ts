import type { ReplyEvent } from '@app/contracts/chat';
import { adaptiveFrameMs, DeltaCoalescer, MAX_DELTA_FRAME_MS, SharedFrame } from './delta-coalescer';

const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } });
const reasoning = (delta: string): ReplyEvent => ({ event: 'reasoning', data: { delta } });
const deltas = (events: ReplyEvent[]) => events.map((e) => (e.event === 'text' ? e.data.delta : '')).join('');

describe('DeltaCoalescer', () => {
  let sent: ReplyEvent[];
  let frame: SharedFrame;
  let out: DeltaCoalescer;

  beforeEach(() => {
    jest.useFakeTimers();
    sent = [];
    frame = new SharedFrame();
    out = new DeltaCoalescer((event) => sent.push(event), 5, frame);
  });
  afterEach(() => {
    out.close();
    jest.useRealTimers();
  });

  it('sends every delta at once when the frame is 0 (one reply alone)', () => {
    const alone = new DeltaCoalescer((event) => sent.push(event), 0, frame);
    for (const word of ['a', 'b', 'c']) {
      alone.send(text(word));
      expect(sent.at(-1)).toEqual(text(word));
    }
    alone.close();
    expect(sent).toEqual([text('a'), text('b'), text('c')]);
  });

  it('holds a delta until the frame ends, joining the ones that follow: one event per frame, the text whole and in order', () => {
    out.send(text('He'));
    jest.advanceTimersByTime(1);
    out.send(text('l'));
    out.send(text('lo'));
    expect(sent).toEqual([]);
    jest.advanceTimersByTime(4); // the frame began with 'He'
    expect(sent).toEqual([text('Hello')]);
    // 500 deltas a second for 100 ms: one event per 5 ms frame.
    for (let i = 0; i < 50; i++) {
      out.send(text(`${i},`));
      jest.advanceTimersByTime(2);
    }
    out.flush();
    expect(sent.length).toBeLessThanOrEqual(1 + 21);
    expect(deltas(sent)).toBe(`Hello${Array.from({ length: 50 }, (_, i) => `${i},`).join('')}`);
  });

  it('ends one frame for every reply at once: the replies that held deltas send them in the same timer callback', () => {
    const order: string[] = [];
    const others = Array.from({ length: 3 }, (_, n) => new DeltaCoalescer(() => order.push(`reply ${n}`), 5, frame));
    others[0].send(text('a'));
    jest.advanceTimersByTime(3);
    others[1].send(text('b'));
    others[2].send(text('c'));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(2); // 5 ms after the first delta, 2 ms after the others: no delta waits more than a frame
    expect(order).toEqual(['reply 0', 'reply 1', 'reply 2']);
    expect(jest.getTimerCount()).toBe(0);
    for (const reply of others) reply.close();
  });

  it('keeps the order: another event, or a change between text and reasoning, sends what is held first', () => {
    out.send(reasoning('think'));
    out.send(reasoning('ing'));
    out.send(text('An'));
    out.send(text('swer'));
    out.send({ event: 'phase', data: { phase: 'searching' } });
    expect(sent).toEqual([reasoning('thinking'), text('Answer'), { event: 'phase', data: { phase: 'searching' } }]);
    out.send(text('x'));
    out.send(text('y'));
    out.flush();
    expect(sent.slice(3)).toEqual([text('xy')]);
    jest.advanceTimersByTime(100);
    expect(sent).toHaveLength(4);
  });

  it('sends what it holds when it is closed, and nothing twice when the frame ends after that', () => {
    out.send(text('last'));
    out.close();
    expect(sent).toEqual([text('last')]);
    jest.advanceTimersByTime(100);
    expect(sent).toEqual([text('last')]);
  });

  it("does not change the caller's event when it joins others to it", () => {
    const first = text('a');
    out.send(first);
    out.send(text('b'));
    out.flush();
    expect(first).toEqual(text('a'));
    expect(sent).toEqual([text('ab')]);
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

  it('under load, a delta waits at most one animation frame, joined with the ones that follow it', () => {
    jest.useFakeTimers();
    const load = Array.from({ length: 200 }, () => new DeltaCoalescer(() => undefined));
    const sent: ReplyEvent[] = [];
    const out = new DeltaCoalescer((event) => sent.push(event));
    try {
      out.send(text('a'));
      jest.advanceTimersByTime(4);
      out.send(text('b'));
      jest.advanceTimersByTime(11);
      expect(sent).toEqual([]);
      jest.advanceTimersByTime(1); // 16 ms after 'a'
      expect(sent).toEqual([text('ab')]);
    } finally {
      out.close();
      for (const coalescer of load) coalescer.close();
      jest.useRealTimers();
    }
  });
});
