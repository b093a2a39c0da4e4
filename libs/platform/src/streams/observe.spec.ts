import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { observeGenerator, observeJob } from './observe';

describe('observeJob', () => {
  it('passes on what the job emits, then completes', async () => {
    const stream = observeJob<number>(async (emit) => {
      emit(1);
      await Promise.resolve();
      emit(2);
    });
    await expect(lastValueFrom(stream.pipe(toArray()))).resolves.toEqual([1, 2]);
  });

  it("errors with the job's failure", async () => {
    const stream = observeJob<number>(async () => {
      throw new Error('broken');
    });
    await expect(lastValueFrom(stream)).rejects.toThrow('broken');
  });

  it('lets the job run to its end after the listener left, telling it by the signal', async () => {
    let finished!: (aborted: boolean) => void;
    const done = new Promise<boolean>((resolve) => (finished = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stream = observeJob<number>(async (emit, signal) => {
      emit(1);
      await gate;
      emit(2);
      finished(signal.aborted);
    });
    await expect(firstValueFrom(stream)).resolves.toBe(1);
    release();
    await expect(done).resolves.toBe(true);
  });
});

describe('observeGenerator', () => {
  it('ends the generator when the listener leaves (its finally runs)', async () => {
    let cleaned!: () => void;
    const cleanedUp = new Promise<void>((resolve) => (cleaned = resolve));
    const stream = observeGenerator<number>(async function* () {
      try {
        for (let i = 0; ; i++) yield i;
      } finally {
        cleaned();
      }
    });
    await expect(firstValueFrom(stream)).resolves.toBe(0);
    await expect(cleanedUp).resolves.toBeUndefined();
  });

  it('passes every value on and completes', async () => {
    const stream = observeGenerator<string>(async function* () {
      yield 'a';
      yield 'b';
    });
    await expect(lastValueFrom(stream.pipe(toArray()))).resolves.toEqual(['a', 'b']);
  });
});
