import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { fetchSpeech } from '../api/speechApi';
import { AudioEngine, NOT_INITIALISED } from './audioEngine';

/** A Web Audio stand-in: a clock the test moves, sources that end when the clock passes their end. */
class FakeContext {
  currentTime = 0;
  state: 'running' | 'suspended' = 'running';
  destination = {};
  sources: FakeSource[] = [];
  createBuffer(channels: number, length: number, sampleRate: number) {
    const data = Array.from({ length: channels }, () => new Float32Array(length));
    return {
      duration: length / sampleRate,
      sampleRate,
      numberOfChannels: channels,
      copyToChannel: (samples: Float32Array, channel: number) => data[channel]!.set(samples),
      getChannelData: (channel: number) => data[channel]!,
    };
  }
  createBufferSource() {
    const source = new FakeSource();
    this.sources.push(source);
    return source;
  }
  async decodeAudioData() {
    const buffer = this.createBuffer(1, 2400, 24000);
    buffer.getChannelData(0).fill(0.2);
    return buffer;
  }
  async suspend() {
    this.state = 'suspended';
  }
  async resume() {
    this.state = 'running';
  }
  /** Moves the clock; sources whose end has passed end. */
  advance(seconds: number) {
    this.currentTime += seconds;
    for (const source of this.sources) {
      if (source.startedAt !== null && !source.ended && source.startedAt + source.buffer!.duration <= this.currentTime) {
        source.ended = true;
        source.onended?.();
      }
    }
  }
}
class FakeSource {
  buffer: ReturnType<FakeContext['createBuffer']> | null = null;
  startedAt: number | null = null;
  ended = false;
  stopped = false;
  onended: (() => void) | null = null;
  connect() {}
  start(when: number) {
    this.startedAt = when;
  }
  stop() {
    this.stopped = true;
  }
}

/** 0.5 s of PCM at 24 kHz, its loudest sample at `peak`. */
function pcm(seconds = 0.5, peak = 0.25): Response {
  const samples = Math.round(24000 * seconds);
  const view = new DataView(new ArrayBuffer(samples * 2));
  for (let i = 0; i < samples; i += 1) view.setInt16(i * 2, Math.round(Math.sin(i / 10) * peak * 32767), true);
  return new Response(view.buffer, {
    status: 200,
    headers: { 'content-type': 'audio/pcm;rate=24000;channels=1', 'x-tts-request-id': `req-${Math.random()}` },
  });
}

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('AudioEngine', () => {
  let ctx: FakeContext;
  let engine: AudioEngine;
  beforeEach(() => {
    signedIn();
    ctx = new FakeContext();
    engine = new AudioEngine({ createContext: () => ctx as unknown as AudioContext, fetchSpeech, speechSynthesis: null });
  });
  afterEach(() => vi.useRealTimers());

  it('throws when used before it is initialised', () => {
    expect(() => engine.enqueue({ text: 'Hello.' })).toThrow(NOT_INITIALISED);
  });

  it('plays PCM chunks at a peak of 0.8, at least 50 ms apart, fetching chunk N+1 while N plays', async () => {
    const api = mockFetch({ 'POST /api/v1/text-to-speech/file': () => pcm(0.5, 0.25) });
    engine.init();
    engine.enqueue({ text: 'One.', chatId: 'c1', messageId: 'm1' });
    engine.enqueue({ text: 'Two.', chatId: 'c1', messageId: 'm1' });
    engine.enqueue({ text: 'Three.', chatId: 'c1', messageId: 'm1' });
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(2));
    // The first two are scheduled (one plays, the next is ready); the third waits for the first to end.
    expect(api.calls).toHaveLength(2);
    const [first, second] = ctx.sources;
    expect(first!.startedAt).toBe(0);
    expect(second!.startedAt! - (first!.startedAt! + first!.buffer!.duration)).toBeCloseTo(0.05, 5);
    const peak = Math.max(...Array.from(first!.buffer!.getChannelData(0)).map(Math.abs));
    expect(peak).toBeCloseTo(0.8, 3);
    expect(JSON.parse(api.calls[0]!.body!)).toMatchObject({ text: 'One.', chat_id: 'c1', message_id: 'm1' });
    expect(engine.state).toBe('playing');

    ctx.advance(0.5);
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(3));
    const third = ctx.sources[2]!;
    expect(third.startedAt! - (second!.startedAt! + 0.5)).toBeCloseTo(0.05, 5);
    expect(engine.requestIds.of('m1')).toHaveLength(3);

    ctx.advance(2);
    await flush();
    expect(engine.state).toBe('idle');
  });

  it('keeps at least 50 ms when the next chunk arrives late, and plays at once when it arrives after the gap', async () => {
    vi.useFakeTimers();
    let release: () => void = () => undefined;
    let calls = 0;
    mockFetch({
      'POST /api/v1/text-to-speech/file': () => {
        calls += 1;
        if (calls === 1) return pcm(0.2);
        return new Promise<Response>((resolve) => (release = () => resolve(pcm(0.2))));
      },
    });
    engine.init();
    engine.enqueue({ text: 'One.' });
    engine.enqueue({ text: 'Two.' });
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(1));
    ctx.advance(0.22); // the first ended 20 ms ago; the second is still on its way
    release();
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(2));
    expect(ctx.sources[1]!.startedAt).toBeCloseTo(0.25, 5);
    ctx.advance(1);
    await vi.runAllTimersAsync();
  });

  it('stops, pauses and resumes', async () => {
    mockFetch({ 'POST /api/v1/text-to-speech/file': () => pcm(1) });
    engine.init();
    engine.enqueue({ text: 'One.' });
    engine.enqueue({ text: 'Two.' });
    engine.enqueue({ text: 'Three.' });
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(2));
    engine.pause();
    expect(engine.state).toBe('paused');
    expect(ctx.state).toBe('suspended');
    engine.resume();
    expect(ctx.state).toBe('running');
    expect(engine.state).toBe('playing');
    engine.stop();
    expect(ctx.sources.every((s) => s.stopped)).toBe(true);
    expect(engine.state).toBe('idle');
    ctx.advance(5);
    await flush();
    expect(ctx.sources).toHaveLength(2);
  });

  it('decodes WAV and MP3 answers through decodeAudioData, normalised too', async () => {
    mockFetch({
      'POST /api/v1/text-to-speech/file': () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'content-type': 'audio/wav' } }),
    });
    engine.init();
    engine.enqueue({ text: 'One.' });
    await vi.waitFor(() => expect(ctx.sources).toHaveLength(1));
    expect(ctx.sources[0]!.buffer!.getChannelData(0)[0]).toBeCloseTo(0.8);
  });

  it('on a failed fetch logs `fetch {url} → {status}` and falls back to the browser’s speech synthesis', async () => {
    mockFetch({ 'POST /api/v1/text-to-speech/file': json(502, { detail: 'The voice engine failed.' }) });
    const spoken: string[] = [];
    const synthesis = {
      speak: vi.fn((u: { text: string; onend: () => void }) => {
        spoken.push(u.text);
        setTimeout(() => u.onend(), 0);
      }),
      cancel: vi.fn(),
      pause: vi.fn(),
      resume: vi.fn(),
    };
    vi.stubGlobal(
      'SpeechSynthesisUtterance',
      class {
        rate = 1;
        onend: (() => void) | null = null;
        onerror: (() => void) | null = null;
        constructor(readonly text: string) {}
      },
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fallbackEngine = new AudioEngine({
      createContext: () => ctx as unknown as AudioContext,
      fetchSpeech,
      speechSynthesis: synthesis as unknown as SpeechSynthesis,
    });
    fallbackEngine.init();
    fallbackEngine.enqueue({ text: 'One.' });
    fallbackEngine.enqueue({ text: 'Two.' });
    await vi.waitFor(() => expect(spoken).toEqual(['One.', 'Two.']));
    expect(error).toHaveBeenCalledWith('fetch /api/v1/text-to-speech/file → 502');
    expect(ctx.sources).toHaveLength(0);
  });

  it('without speech synthesis, a failed fetch ends in a warning', async () => {
    mockFetch({ 'POST /api/v1/text-to-speech/file': json(429, { detail: 'Too many requests.' }) });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    engine.init();
    engine.enqueue({ text: 'One.' });
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    expect(error).toHaveBeenCalledWith('fetch /api/v1/text-to-speech/file → 429');
    expect(String(warn.mock.calls[0]![0])).toMatch(/Speech synthesis is not available/);
  });
});
