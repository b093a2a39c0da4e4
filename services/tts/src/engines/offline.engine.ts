import { TTS_VOICES } from '@app/contracts/insider-config';
import { SPEECH_CONTENT_TYPES, SPEECH_LIMITS, type Voices } from '@app/contracts/tts';
import { DomainError } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { wavOf } from '../audio/pcm';
import { FairQueue } from '../speech/fair-queue';
import { speechSegments } from '../text/segments';
import type { OfflineVoice, VoiceLine } from './offline-voices';
import { PREVIEW_TEXT, SpeechEngineError, type SpeechAudio, type SpeechEngine, type SpeechJob } from './speech-engine';

/** What the warm-up speaks, on every worker, at most WARM_UP_ROUNDS times, until a round takes under WARM_ENOUGH_MS. */
const WARM_UP_TEXT = 'Hello! This is how I sound when I read your answers aloud; questions, lists and numbers such as 1,234.5 included.';
const WARM_UP_ROUNDS = 4;
const WARM_ENOUGH_MS = 250;
/**
 * Characters of a stretch after the first sentence: about 9 s of speech, spoken in about 0.2 s by
 * Flite here. A newcomer waits for at most one stretch per worker, so this bounds their wait; the
 * fairness bench (scripts/bench-voice-fairness.mjs) met its goal at 140 and missed it at 280.
 */
export const STRETCH_CHARS = 140;
/** Whose share a job without a user (a warm-up, a script) takes. */
const NOBODY = '';

export interface OfflineEngineOptions {
  /** Characters of a stretch spoken at once after the first sentence (a shorter stretch: a newcomer waits less). */
  segmentChars: number;
}

/**
 * Real speech with no network: an offline synthesiser (CMU Flite by default) in worker threads.
 * A text is spoken as stretches (the first sentence alone, then a few sentences at a time), each
 * streamed as soon as it is made, and each taking a slot of the user's fair share of the workers
 * (FairQueue): a short request from one user is served between two stretches of another's long one,
 * and a request abandoned by its caller stops at the next stretch. PCM streams; a WAV (which needs
 * its length first) is sent once the whole text is spoken; no MP3 encoder here (422).
 */
export class OfflineSpeechEngine implements SpeechEngine {
  readonly name = 'offline' as const;
  readonly takesModelSetting = false;
  private readonly queue: FairQueue;

  constructor(
    private readonly voice: OfflineVoice,
    private readonly options: OfflineEngineOptions = { segmentChars: STRETCH_CHARS },
  ) {
    this.queue = new FairQueue(voice.concurrency);
  }

  get model(): string {
    return this.voice.model;
  }

  /** Stretches running and waiting for a worker. */
  get load(): { running: number; waiting: number } {
    return this.queue.load;
  }

  voices(): Voices {
    return Object.fromEntries(TTS_VOICES.map((id) => [id, { ...this.voice.describe(id), engine: this.name, preview_text: PREVIEW_TEXT }]));
  }

  /**
   * Speaks a few sentences on every worker, a few times: WebAssembly runs first as baseline code,
   * and V8 optimises the synthesiser's hot functions only once they have run a while. Without this,
   * the first reply a user hears (auto read-aloud) would start seconds late.
   */
  async warmUp(): Promise<void> {
    for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: this.voice.concurrency }, (_, worker) =>
          this.speak(NOBODY, { text: WARM_UP_TEXT, voice: TTS_VOICES[(round + worker) % TTS_VOICES.length]!, speed: 1 }),
        ),
      );
      if (performance.now() - started < WARM_ENOUGH_MS) break;
    }
  }

  /** The first stretch is spoken before this answers, so a failure is a 502 before any audio. */
  async synthesize(job: SpeechJob): Promise<SpeechAudio> {
    if (job.format === 'mp3') throw new DomainError('validation_failed', 'format: the offline voice makes pcm or wav, not mp3');
    const who = job.userId ?? NOBODY;
    const [first, ...rest] = speechSegments(job.text, { maxChars: this.options.segmentChars });
    const line = (text: string): VoiceLine => ({ text, voice: job.voice, speed: job.speed });
    const firstAudio = await this.speak(who, line(first ?? job.text), job.signal);
    const stretches = async function* (engine: OfflineSpeechEngine): AsyncGenerator<Buffer> {
      yield firstAudio;
      for (const text of rest) {
        if (job.signal?.aborted) return;
        yield await engine.speak(who, line(text), job.signal);
      }
    };
    const common = { contentType: SPEECH_CONTENT_TYPES[job.format], requestId: `offline-${randomUUID()}` };
    if (job.format === 'pcm') return { ...common, size: rest.length ? null : firstAudio.length, body: stretches(this) };
    const parts: Buffer[] = [];
    for await (const part of stretches(this)) parts.push(part);
    const wav = wavOf(Buffer.concat(parts), SPEECH_LIMITS.sampleRate);
    return {
      ...common,
      size: wav.length,
      body: (async function* () {
        yield wav;
      })(),
    };
  }

  close(): Promise<void> {
    return this.voice.close();
  }

  private async speak(who: string, line: VoiceLine, signal?: AbortSignal): Promise<Buffer> {
    try {
      return await this.queue.run(who, () => this.voice.speak(line), signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new SpeechEngineError('The offline voice could not speak this text.', { cause: error });
    }
  }
}
