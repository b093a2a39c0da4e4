import { headAndBody } from './headed-stream';

/** A service's frames: a head, then data, for as long as it is read; records whether it was told to stop. */
function producer() {
  const state = { stopped: false, sent: 0 };
  async function* frames() {
    try {
      yield { kind: 'head' as const, size: null };
      for (;;) {
        state.sent += 1;
        yield { kind: 'data' as const, data: Buffer.alloc(1024, state.sent).toString('base64') };
      }
    } finally {
      state.stopped = true;
    }
  }
  return { frames: frames(), state };
}

describe('headAndBody', () => {
  it('closes the service stream when the HTTP body is dropped before its end (the client left)', async () => {
    const { frames, state } = producer();
    const { head, body } = await headAndBody<{ size: null }>(frames, 'test service');
    expect(head).toMatchObject({ size: null });
    for await (const chunk of body) {
      expect((chunk as Buffer).length).toBe(1024);
      break;
    }
    await new Promise((resolve) => body.once('close', resolve));
    expect(state.stopped).toBe(true);
    const sentWhenStopped = state.sent;
    await new Promise((resolve) => setImmediate(resolve));
    expect(state.sent).toBe(sentWhenStopped);
  });

  it('reads a finished stream to its end', async () => {
    async function* frames() {
      yield { kind: 'head' as const, size: 2 };
      yield { kind: 'data' as const, data: Buffer.from('ok').toString('base64') };
    }
    const { body } = await headAndBody<{ size: number }>(frames(), 'test service');
    const parts: Buffer[] = [];
    for await (const chunk of body) parts.push(chunk as Buffer);
    expect(Buffer.concat(parts).toString()).toBe('ok');
  });
});
