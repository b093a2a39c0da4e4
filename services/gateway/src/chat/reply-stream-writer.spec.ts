import type { ReplyEvent } from '@app/contracts/chat';
import { ReplyStreamWriter, type SseSink } from './reply-stream-writer';

/** Records what would go to the browser. */
class RecordingSink implements SseSink {
  readonly chunks: string[] = [];
  endings = 0;
  write(chunk: string): void {
    if (this.endings) throw new Error('written after the end');
    this.chunks.push(chunk);
  }
  end(): void {
    this.endings++;
  }
  get events(): string[] {
    return this.chunks.filter((c) => c.startsWith('event: ')).map((c) => c.slice(7, c.indexOf('\n')));
  }
}

const text = (delta: string): ReplyEvent => ({ event: 'text', data: { delta } });
const error = (detail: string): ReplyEvent => ({ event: 'error', data: { detail } });
const done: ReplyEvent = { event: 'done', data: {} };

describe('ReplyStreamWriter: exactly one end per reply stream', () => {
  it('writes the events of a reply, then ends at done', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('Hel'));
    writer.send(text('lo'));
    writer.send(done);
    expect(sink.events).toEqual(['text', 'text', 'done']);
    expect(sink.chunks[0]).toBe('event: text\ndata: {"delta":"Hel"}\n\n');
    expect(writer.state).toBe('ended');
    expect(sink.endings).toBe(1);
  });

  it('never sends an error and a second done after done (a late failure of the upstream call)', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('all of it'));
    writer.send(done);
    expect(writer.fail('The chat service did not answer in time (120000 ms)')).toBe(false);
    writer.send(done);
    writer.finish();
    expect(sink.events).toEqual(['text', 'done']);
    expect(writer.dropped).toBe(2);
    expect(sink.endings).toBe(1);
  });

  it("keeps the service's own error and ends with its done", () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('partial'));
    writer.send(error('The model stopped answering.'));
    writer.send(text('after the error')); // dropped
    writer.send(done);
    expect(sink.events).toEqual(['text', 'error', 'done']);
    expect(writer.dropped).toBe(1);
  });

  it('a failure mid-stream is one error, then done', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('partial'));
    writer.fail('The chat service stopped responding while answering');
    expect(sink.events).toEqual(['text', 'error', 'done']);
    expect(sink.chunks[1]).toBe('event: error\ndata: {"detail":"The chat service stopped responding while answering"}\n\n');
  });

  it('a failure after the service sent its own error adds no second error, only the done', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(error('The reply was stopped.'));
    writer.fail('and then the connection dropped');
    expect(sink.events).toEqual(['error', 'done']);
  });

  it('an upstream that ends without done still ends the stream with one', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('x'));
    writer.finish();
    writer.finish();
    expect(sink.events).toEqual(['text', 'done']);
  });

  it('keeps the connection alive with comments until the end only', () => {
    const sink = new RecordingSink();
    const writer = new ReplyStreamWriter(sink);
    writer.keepAlive();
    writer.send(done);
    writer.keepAlive();
    expect(sink.chunks).toEqual([': keep-alive\n\n', 'event: done\ndata: {}\n\n']);
  });
});

/** A sink like a socket to a slow reader: full after `room` bytes, until drained. */
class SlowSink implements SseSink {
  readonly chunks: string[] = [];
  buffered = 0;
  endings = 0;
  abandoned = 0;
  private resume?: () => void;
  constructor(private readonly room: number) {}
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    return this.buffered < this.room;
  }
  end(): void {
    this.endings++;
  }
  onDrain(resume: () => void): void {
    this.resume = resume;
  }
  abandon(): void {
    this.abandoned++;
  }
  /** The reader took everything written so far. */
  drain(): void {
    this.buffered = 0;
    const resume = this.resume;
    this.resume = undefined;
    resume?.();
  }
}

describe('ReplyStreamWriter: backpressure from a slow reader', () => {
  it('writes nothing more while the sink is full; what came meanwhile goes in one write, deltas joined', () => {
    const sink = new SlowSink(100);
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('x'.repeat(120))); // fills the sink
    for (let i = 0; i < 10_000; i++) writer.send(text('y'));
    writer.send({ event: 'phase', data: { phase: 'searching' } });
    writer.send(text('z'));
    expect(sink.chunks).toHaveLength(1);
    expect(writer.waitingBytes).toBeLessThan(10_000 + 500);
    sink.drain();
    expect(sink.chunks).toHaveLength(2);
    expect(sink.chunks[1]).toBe(
      `event: text\ndata: {"delta":"${'y'.repeat(10_000)}"}\n\nevent: phase\ndata: {"phase":"searching"}\n\nevent: text\ndata: {"delta":"z"}\n\n`,
    );
    expect(writer.waitingBytes).toBe(0);
    writer.send(text('held again')); // that write filled the sink again
    expect(sink.chunks).toHaveLength(2);
    sink.drain();
    expect(sink.chunks).toHaveLength(3);
    writer.send(text('after'));
    expect(sink.chunks).toHaveLength(4);
  });

  it('ends with what is held and done in one write, without waiting for the reader', () => {
    const sink = new SlowSink(10);
    const writer = new ReplyStreamWriter(sink);
    writer.send(text('first'));
    writer.send(text('second'));
    writer.send(done);
    expect(sink.chunks).toEqual([
      'event: text\ndata: {"delta":"first"}\n\n',
      'event: text\ndata: {"delta":"second"}\n\nevent: done\ndata: {}\n\n',
    ]);
    expect(sink.endings).toBe(1);
  });

  it('cuts off a reader that falls more than the limit behind, instead of buffering without bound', () => {
    const sink = new SlowSink(10);
    const writer = new ReplyStreamWriter(sink, 1_000);
    writer.send(text('first'));
    for (let i = 0; i < 100; i++) writer.send({ event: 'phase', data: { phase: i % 2 ? 'searching' : 'thinking' } });
    expect(writer.abandoned).toBe(true);
    expect(sink.abandoned).toBe(1);
    expect(writer.waitingBytes).toBe(0);
    writer.send(done);
    sink.drain();
    expect(sink.chunks).toHaveLength(1);
    expect(writer.ended).toBe(true);
  });
});
