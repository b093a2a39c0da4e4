import { Readable } from 'node:stream';

/** A frame of a service's byte stream: its head first (what the headers say), then base64 data. */
type Frame<H> = ({ kind: 'head' } & H) | { kind: 'data'; data: string };

/**
 * Reads the head of a byte stream a service sends over the bus (a file, synthesised audio) and
 * gives the rest as a byte stream for the HTTP answer, read as the response drains (its
 * backpressure). A refusal before the head throws, so the exception filter answers it with a
 * status and `{detail}`; a stream that starts without a head is a broken promise of the service.
 */
export async function headAndBody<H>(frames: AsyncIterable<Frame<H>>, sender: string): Promise<{ head: H; body: Readable }> {
  const iterator = frames[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.kind !== 'head') throw new Error(`The ${sender} sent a body without its head`);
  const head = first.value as { kind: 'head' } & H;
  async function* bytes() {
    let done = false;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return void (done = true);
        if (next.value.kind === 'data') yield Buffer.from(next.value.data, 'base64');
      }
    } finally {
      // The HTTP client left before the end: the service's stream is closed too (it stops making it).
      if (!done) await iterator.return?.(undefined);
    }
  }
  return { head, body: Readable.from(bytes(), { objectMode: false }) };
}
