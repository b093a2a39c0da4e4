import { ReplyCheckpoints } from './reply-checkpoints';

describe('ReplyCheckpoints', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  const setup = () => {
    let text = '';
    const saves: string[] = [];
    let release: (() => void) | null = null;
    let slow = false;
    const checkpoints = new ReplyCheckpoints({
      save: async () => {
        saves.push(text);
        if (slow) await new Promise<void>((resolve) => (release = resolve));
      },
      version: () => String(text.length),
      intervalMs: 1_000,
      onError: () => undefined,
    });
    return { checkpoints, saves, write: (more: string) => (text += more), slowDown: () => (slow = true), release: () => release?.() };
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('saves what changed, and nothing else however long the reply stays the same (ReplyLeases renews its lease)', async () => {
    const { checkpoints, saves, write } = setup();
    checkpoints.tick();
    expect(saves).toEqual([]);
    write('Hello');
    checkpoints.tick();
    await settle();
    expect(saves).toEqual(['Hello']);
    now += 1_000;
    checkpoints.tick();
    await settle();
    expect(saves).toEqual(['Hello']);
    now += 60_000;
    checkpoints.tick();
    await settle();
    expect(saves).toEqual(['Hello']);
  });

  it('never runs two saves at once, and stop waits for the one under way', async () => {
    const { checkpoints, saves, write, slowDown, release } = setup();
    slowDown();
    write('a');
    checkpoints.tick();
    write('b');
    checkpoints.tick();
    expect(saves).toEqual(['a']);
    let stopped = false;
    const stopping = checkpoints.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(saves).toEqual(['a']);
  });

  it('drops a save still waiting for its turn when stopped, without taking it for a failure', async () => {
    let text = '';
    const errors: unknown[] = [];
    const checkpoints = new ReplyCheckpoints({
      // A save queued behind others (ReplyWrites): it rejects when dropped.
      save: (stopped) => new Promise<void>((_resolve, reject) => stopped.addEventListener('abort', () => reject(stopped.reason))),
      version: () => text,
      intervalMs: 1_000,
      onError: (error) => errors.push(error),
    });
    text = 'a';
    checkpoints.tick();
    await checkpoints.stop();
    expect(errors).toEqual([]);
  });
});
