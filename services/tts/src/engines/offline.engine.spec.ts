import type { TtsVoice } from '@app/contracts/insider-config';
import { parseWav } from '@app/testing';
import { OfflineSpeechEngine } from './offline.engine';
import type { OfflineVoice, VoiceLine } from './offline-voices';
import type { SpeechAudio, SpeechJob } from './speech-engine';

/** A voice that speaks each stretch when the test says so: its text as the bytes. */
class HeldVoice implements OfflineVoice {
  readonly model = 'held';
  spoken: string[] = [];
  private waiting: { line: VoiceLine; done(audio: Buffer): void }[] = [];
  constructor(readonly concurrency: number) {}
  describe(voice: TtsVoice) {
    return { label: voice, language: 'en-US' };
  }
  speak(line: VoiceLine): Promise<Buffer> {
    return new Promise((done) => this.waiting.push({ line, done }));
  }
  /** Texts being spoken now. */
  get busy(): string[] {
    return this.waiting.map((w) => w.line.text);
  }
  /** Finishes the stretch with this text. */
  finish(text: string): void {
    const at = this.waiting.findIndex((w) => w.line.text === text);
    if (at < 0) throw new Error(`"${text}" is not being spoken (busy: ${this.busy.join(' | ')})`);
    const [job] = this.waiting.splice(at, 1);
    this.spoken.push(text);
    job!.done(Buffer.from(text));
  }
  async close() {}
}

const job = (text: string, userId: string, extra: Partial<SpeechJob> = {}): SpeechJob => ({
  text,
  userId,
  voice: 'alloy',
  speed: 1,
  model: 'held',
  format: 'pcm',
  ...extra,
});
const tick = () => new Promise((resolve) => setImmediate(resolve));
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await tick();
  if (!condition()) throw new Error('condition never held');
}
const LONG = (who: string) => Array.from({ length: 6 }, (_, i) => `${who} sentence ${i + 1}.`).join(' ');

describe('OfflineSpeechEngine: stretches, fair shares, abandonment', () => {
  it('streams a long text stretch by stretch, each as soon as it is spoken', async () => {
    const voice = new HeldVoice(1);
    const engine = new OfflineSpeechEngine(voice, { segmentChars: 12 });
    const pending = engine.synthesize(job('First one. Second. Third.', 'a'));
    await until(() => voice.busy.length === 1);
    voice.finish('First one.');
    const audio: SpeechAudio = await pending;
    const body = audio.body[Symbol.asyncIterator]();
    expect((await body.next()).value.toString()).toBe('First one.');
    const next = body.next();
    await until(() => voice.busy.length === 1);
    voice.finish('Second.');
    expect((await next).value.toString()).toBe('Second.');
    const last = body.next();
    await until(() => voice.busy.length === 1);
    voice.finish('Third.');
    expect((await last).value.toString()).toBe('Third.');
    expect((await body.next()).done).toBe(true);
  });

  it("serves another user's one sentence between two stretches of long texts, whoever asked first", async () => {
    const voice = new HeldVoice(1);
    const engine = new OfflineSpeechEngine(voice, { segmentChars: 20 });
    const drain = async (pending: Promise<SpeechAudio>) => {
      for await (const _part of (await pending).body);
    };
    const long1 = drain(engine.synthesize(job(LONG('Ann'), 'a')));
    const long2 = drain(engine.synthesize(job(LONG('Amy'), 'a')));
    await until(() => voice.busy.length === 1);
    voice.finish('Ann sentence 1.');
    await until(() => voice.busy.length === 1);
    // b asks now: it is next, before the rest of a's two long texts.
    const short = engine.synthesize(job('Hi there.', 'b'));
    voice.finish(voice.busy[0]!);
    await until(() => voice.busy.length === 1);
    expect(voice.busy).toEqual(['Hi there.']);
    voice.finish('Hi there.');
    await drain(short);
    while (voice.spoken.length < 13) {
      await until(() => voice.busy.length === 1);
      voice.finish(voice.busy[0]!);
    }
    await Promise.all([long1, long2]);
  });

  it('stops speaking a text whose caller went away: no further stretch reaches the voice', async () => {
    const voice = new HeldVoice(1);
    const engine = new OfflineSpeechEngine(voice, { segmentChars: 20 });
    const controller = new AbortController();
    const pending = engine.synthesize(job(LONG('Ann'), 'a', { signal: controller.signal }));
    await until(() => voice.busy.length === 1);
    voice.finish('Ann sentence 1.');
    const body = (await pending).body[Symbol.asyncIterator]();
    await body.next();
    const next = body.next();
    await until(() => voice.busy.length === 1);
    controller.abort(new Error('The caller went away'));
    voice.finish(voice.busy[0]!);
    await next.catch(() => undefined);
    await expect(body.next()).resolves.toMatchObject({ done: true });
    await tick();
    expect(voice.busy).toEqual([]);
    expect(voice.spoken).toHaveLength(2);
    expect(engine.load).toEqual({ running: 0, waiting: 0 });
  });

  it('a caller that goes away while waiting for a worker never reaches the voice', async () => {
    const voice = new HeldVoice(1);
    const engine = new OfflineSpeechEngine(voice, { segmentChars: 20 });
    const first = engine.synthesize(job('Busy.', 'a'));
    const controller = new AbortController();
    const waiting = engine.synthesize(job('Never said.', 'b', { signal: controller.signal }));
    await until(() => engine.load.waiting === 1);
    controller.abort(new Error('The caller went away'));
    await expect(waiting).rejects.toThrow('The caller went away');
    voice.finish('Busy.');
    await first;
    expect(voice.spoken).toEqual(['Busy.']);
  });

  it('sends a WAV whole, with its length, once every stretch is spoken', async () => {
    const voice = new HeldVoice(2);
    const engine = new OfflineSpeechEngine(voice, { segmentChars: 8 });
    const pending = engine.synthesize(job('One. Two. Three.', 'a', { format: 'wav' }));
    for (const text of ['One.', 'Two.', 'Three.']) {
      await until(() => voice.busy.includes(text));
      voice.finish(text);
    }
    const audio = await pending;
    const parts: Buffer[] = [];
    for await (const part of audio.body) parts.push(part);
    const wav = Buffer.concat(parts);
    expect(audio.size).toBe(wav.length);
    expect(parseWav(wav)).toMatchObject({ sampleRate: 24_000 });
    expect(wav.subarray(44).toString()).toBe('One.Two.Three.');
  });
});
