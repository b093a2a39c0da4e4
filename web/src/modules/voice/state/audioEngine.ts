import { fetchSpeech as defaultFetchSpeech, SpeechFetchError, type SpeechAudio, type SpeechRequest } from '../api/speechApi';
import { TTS } from '../utils/constants';
import { isPcm, normalizePeak, pcmRateOf, pcmToFloat32 } from '../utils/pcm';
import { RequestIdLog } from '../utils/requestIds';

export type EngineState = 'idle' | 'loading' | 'playing' | 'paused';

/** One piece of a message to speak, and whose it is (the server checks the conversation is the caller's). */
export type SpeechChunk = { text: string; chatId?: string; messageId?: string };

/** The user's voice, from the AI voice config. */
export type VoiceChoice = Pick<SpeechRequest, 'voice' | 'speed' | 'openai_model'>;

export type EngineDeps = {
  createContext?: () => AudioContext;
  fetchSpeech?: (request: SpeechRequest, signal?: AbortSignal) => Promise<SpeechAudio>;
  /** The browser's speech synthesis, the fallback (null: none). */
  speechSynthesis?: SpeechSynthesis | null;
  now?: () => number;
};

export const NOT_INITIALISED = 'Audio engine not initialised';

type Active = { source: AudioBufferSourceNode; end: number };

/**
 * Speaks chunks through Web Audio (spec sections 4, 8, 9): each chunk is fetched as PCM (24 kHz
 * s16le; WAV or MP3 through decodeAudioData), its loudest sample brought to 0.8, and scheduled at
 * least 50 ms after the previous one ends; chunk N+1 is fetched while chunk N plays. A failed fetch
 * is logged as `fetch {url} → {status}` and the rest is spoken by the browser's speech synthesis
 * when there is one, else a warning is logged. Used before init() it throws.
 */
export class AudioEngine {
  private ctx: AudioContext | null = null;
  private queue: SpeechChunk[] = [];
  private active: Active[] = [];
  private lastEnd = 0;
  private generation = 0;
  private pumping = false;
  private busy = false;
  private paused = false;
  private fallback = false;
  private abort: AbortController | null = null;
  private voice: VoiceChoice = {};
  private listeners = new Set<() => void>();
  private wake: (() => void) | null = null;
  private current: EngineState = 'idle';
  readonly requestIds = new RequestIdLog();
  /** performance.now() when the first sample of this session was scheduled to play (for the bench). */
  firstAudioAt: number | null = null;
  /** Chunks handed to Web Audio since the page loaded (the browser suite counts them). */
  chunksStarted = 0;
  private readonly fetchSpeech: NonNullable<EngineDeps['fetchSpeech']>;
  private readonly now: () => number;

  constructor(private readonly deps: EngineDeps = {}) {
    this.fetchSpeech = deps.fetchSpeech ?? defaultFetchSpeech;
    this.now = deps.now ?? (() => performance.now());
  }

  /** Creates (or wakes) the audio context; call it from a user's action where possible. */
  init(): void {
    if (!this.ctx) {
      const create =
        this.deps.createContext ??
        (() => {
          const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
          return new Context();
        });
      this.ctx = create();
    }
    if (this.ctx.state === 'suspended' && !this.paused) void this.ctx.resume().catch(() => undefined);
  }

  get initialised(): boolean {
    return this.ctx !== null;
  }

  get state(): EngineState {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setVoice(voice: VoiceChoice): void {
    this.voice = voice;
  }

  /** Queues a chunk; it plays after those before it. */
  enqueue(chunk: SpeechChunk): void {
    if (!this.ctx) throw new Error(NOT_INITIALISED);
    this.queue.push(chunk);
    this.notify();
    this.wake?.();
    if (!this.pumping) void this.pump(this.generation);
  }

  /** Stops what plays and drops what is queued. */
  stop(): void {
    this.generation += 1;
    this.queue = [];
    this.abort?.abort();
    this.abort = null;
    for (const { source } of this.active) {
      source.onended = null;
      try {
        source.stop();
      } catch {
        // never started
      }
    }
    this.active = [];
    this.lastEnd = 0;
    this.fallback = false;
    this.firstAudioAt = null;
    this.synthesis()?.cancel();
    this.wake?.();
    if (this.paused) {
      this.paused = false;
      if (this.ctx?.state === 'suspended') void this.ctx.resume().catch(() => undefined);
    }
    this.notify();
  }

  pause(): void {
    if (!this.ctx || this.paused || this.current === 'idle') return;
    this.paused = true;
    void this.ctx.suspend().catch(() => undefined);
    this.synthesis()?.pause();
    this.notify();
  }

  resume(): void {
    if (!this.ctx || !this.paused) return;
    this.paused = false;
    void this.ctx.resume().catch(() => undefined);
    this.synthesis()?.resume();
    this.notify();
  }

  private synthesis(): SpeechSynthesis | null {
    if (this.deps.speechSynthesis !== undefined) return this.deps.speechSynthesis;
    return typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
  }

  private notify(): void {
    const next: EngineState = this.paused
      ? 'paused'
      : this.active.length > 0 || this.speakingFallback
        ? 'playing'
        : this.queue.length > 0 || this.busy
          ? 'loading'
          : 'idle';
    if (next === this.current) return;
    this.current = next;
    this.listeners.forEach((listener) => listener());
  }

  private speakingFallback = false;

  /** Waits until something changes (a chunk ends, a chunk is queued, a stop). */
  private nextChange(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }

  private async pump(generation: number): Promise<void> {
    this.pumping = true;
    try {
      while (generation === this.generation) {
        const chunk = this.queue[0];
        if (!chunk) break;
        // Chunk N+1 is fetched while chunk N plays, not further ahead.
        if (this.active.length > 1) {
          await this.nextChange();
          continue;
        }
        this.queue.shift();
        this.busy = true;
        this.notify();
        try {
          if (this.fallback) await this.speakAloud(chunk, generation);
          else await this.fetchAndSchedule(chunk, generation);
        } finally {
          this.busy = false;
        }
        this.notify();
      }
    } finally {
      this.pumping = false;
      // Something queued by a later session while this one wound down.
      if (generation !== this.generation && this.queue.length > 0) void this.pump(this.generation);
    }
  }

  private async fetchAndSchedule(chunk: SpeechChunk, generation: number): Promise<void> {
    this.abort = new AbortController();
    let buffer: AudioBuffer;
    try {
      const audio = await this.fetchSpeech(
        {
          text: chunk.text,
          // The text is already what a person reads on screen (utils/spokenText.ts): the server reads it as it is.
          normalize_text_for_reading: false,
          ...(chunk.chatId ? { chat_id: chunk.chatId } : {}),
          ...(chunk.chatId && chunk.messageId ? { message_id: chunk.messageId } : {}),
          ...(this.voice.voice ? { voice: this.voice.voice } : {}),
          ...(typeof this.voice.speed === 'number' ? { speed: this.voice.speed } : {}),
          ...(this.voice.openai_model ? { openai_model: this.voice.openai_model } : {}),
        },
        this.abort.signal,
      );
      if (generation !== this.generation) return;
      if (chunk.messageId) this.requestIds.add(chunk.messageId, audio.requestId);
      buffer = await this.decode(audio);
    } catch (error) {
      if (generation !== this.generation || (error as Error)?.name === 'AbortError') return;
      console.error(error instanceof SpeechFetchError ? error.message : error);
      this.fallback = true;
      await this.speakAloud(chunk, generation);
      return;
    }
    if (generation !== this.generation) return;
    this.schedule(buffer);
  }

  private async decode(audio: SpeechAudio): Promise<AudioBuffer> {
    const ctx = this.ctx!;
    if (isPcm(audio.contentType)) {
      const samples = pcmToFloat32(audio.bytes);
      normalizePeak([samples]);
      const buffer = ctx.createBuffer(1, Math.max(1, samples.length), pcmRateOf(audio.contentType));
      buffer.copyToChannel(samples, 0);
      return buffer;
    }
    const buffer = await ctx.decodeAudioData(audio.bytes.slice(0));
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, i) => buffer.getChannelData(i));
    normalizePeak(channels);
    return buffer;
  }

  private schedule(buffer: AudioBuffer): void {
    const ctx = this.ctx!;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    const gap = TTS.minGapMs / 1000;
    const start = Math.max(ctx.currentTime, this.lastEnd > 0 ? this.lastEnd + gap : 0);
    const entry: Active = { source, end: start + buffer.duration };
    this.lastEnd = entry.end;
    this.active.push(entry);
    source.onended = () => {
      this.active = this.active.filter((a) => a !== entry);
      this.wake?.();
      this.notify();
    };
    source.start(start);
    this.chunksStarted += 1;
    if (this.firstAudioAt === null) {
      this.firstAudioAt = this.now() + Math.max(0, start - ctx.currentTime) * 1000;
      // User Timing: when the first sample plays (for the bench and the browser's profiler).
      if (typeof performance !== 'undefined' && typeof performance.mark === 'function')
        performance.mark('voice:first-audio', { startTime: this.firstAudioAt });
    }
    this.notify();
  }

  /** The fallback: the browser speaks the text itself once the scheduled audio is over. */
  private async speakAloud(chunk: SpeechChunk, generation: number): Promise<void> {
    const synthesis = this.synthesis();
    if (!synthesis || typeof SpeechSynthesisUtterance === 'undefined') {
      console.warn('Speech synthesis is not available in this browser: the text cannot be read aloud.');
      return;
    }
    while (this.active.length > 0 && generation === this.generation) await this.nextChange();
    if (generation !== this.generation) return;
    this.speakingFallback = true;
    this.notify();
    try {
      await new Promise<void>((resolve) => {
        const utterance = new SpeechSynthesisUtterance(chunk.text);
        if (typeof this.voice.speed === 'number') utterance.rate = this.voice.speed;
        utterance.onend = () => resolve();
        utterance.onerror = () => resolve();
        synthesis.speak(utterance);
      });
    } finally {
      this.speakingFallback = false;
    }
  }
}
