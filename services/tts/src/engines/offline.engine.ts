import { TTS_VOICES, type TtsVoice } from '@app/contracts/insider-config';
import { SPEECH_CONTENT_TYPES, SPEECH_LIMITS, type Voices } from '@app/contracts/tts';
import { DomainError } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { pcmBytes, resample, wavOf } from '../audio/pcm';
import { EspeakWorker, type EspeakJob } from './espeak-worker';
import { PREVIEW_TEXT, SpeechEngineError, type SpeechAudio, type SpeechEngine, type SpeechJob } from './speech-engine';

interface OfflineVoice {
  /** espeak-ng voice and variant. */
  espeak: string;
  pitch: number;
  label: string;
  language: string;
}

/**
 * Each voice a user may save (TTS_VOICES, named after OpenAI's) spoken by espeak-ng: an English
 * voice and a variant chosen to tell them apart (female and male, US, British, Scottish, New York),
 * so a saved voice works with every engine.
 */
export const OFFLINE_VOICES: Readonly<Record<TtsVoice, OfflineVoice>> = {
  alloy: { espeak: 'gmw/en-US+f2', pitch: 50, label: 'Alloy (US English, neutral)', language: 'en-US' },
  ash: { espeak: 'gmw/en-US+m3', pitch: 45, label: 'Ash (US English, male)', language: 'en-US' },
  ballad: { espeak: 'gmw/en-GB-x-rp+m2', pitch: 50, label: 'Ballad (British English, male)', language: 'en-GB' },
  cedar: { espeak: 'gmw/en-US+m7', pitch: 40, label: 'Cedar (US English, deep male)', language: 'en-US' },
  coral: { espeak: 'gmw/en-US+f4', pitch: 55, label: 'Coral (US English, female)', language: 'en-US' },
  echo: { espeak: 'gmw/en-US+m1', pitch: 50, label: 'Echo (US English, male)', language: 'en-US' },
  fable: { espeak: 'gmw/en-GB-x-rp+f3', pitch: 55, label: 'Fable (British English, female)', language: 'en-GB' },
  marin: { espeak: 'gmw/en-US+f5', pitch: 50, label: 'Marin (US English, soft female)', language: 'en-US' },
  nova: { espeak: 'gmw/en-US+f1', pitch: 60, label: 'Nova (US English, bright female)', language: 'en-US' },
  onyx: { espeak: 'gmw/en-US+m6', pitch: 35, label: 'Onyx (US English, low male)', language: 'en-US' },
  sage: { espeak: 'gmw/en-GB-scotland+f2', pitch: 50, label: 'Sage (Scottish English, female)', language: 'en-GB' },
  shimmer: { espeak: 'gmw/en-US+f3', pitch: 65, label: 'Shimmer (US English, high female)', language: 'en-US' },
  verse: { espeak: 'gmw/en-US-nyc+m4', pitch: 50, label: 'Verse (New York English, male)', language: 'en-US' },
};

/** espeak-ng's normal pace (words per minute) and the range it takes. */
export const ESPEAK_RATE = { normal: 175, min: 80, max: 450 } as const;

/** Words per minute for a speed (1 = normal), within what espeak-ng can do. */
export function espeakRateOf(speed: number): number {
  return Math.round(Math.min(ESPEAK_RATE.max, Math.max(ESPEAK_RATE.min, ESPEAK_RATE.normal * speed)));
}

/** What the warm-up speaks (about 8 s of speech), at most WARM_UP_ROUNDS times, until it takes under WARM_ENOUGH_MS. */
const WARM_UP_TEXT =
  'Hello! This is how I sound when I read your answers aloud; questions, lists and numbers such as 1,234.5 included. ' +
  'The quick brown fox jumps over the lazy dog, and then it rests.';
const WARM_UP_ROUNDS = 4;
const WARM_ENOUGH_MS = 250;

/** The part of synthesis the engine needs (a fake in unit tests). */
export type Synthesizer = Pick<EspeakWorker, 'synthesize' | 'close'>;

/**
 * Real speech with no network: espeak-ng compiled to WebAssembly, from the npm registry, in a
 * worker thread. Its 22,050 Hz output is resampled to the product's 24,000 Hz; PCM or WAV (no MP3
 * encoder here: 422).
 */
export class OfflineSpeechEngine implements SpeechEngine {
  readonly name = 'offline' as const;

  constructor(private readonly espeak: Synthesizer = new EspeakWorker()) {}

  voices(): Voices {
    return Object.fromEntries(
      TTS_VOICES.map((id) => [
        id,
        { label: OFFLINE_VOICES[id].label, language: OFFLINE_VOICES[id].language, engine: this.name, preview_text: PREVIEW_TEXT },
      ]),
    );
  }

  /**
   * Starts the worker and speaks a few sentences in it, a few times: WebAssembly runs first as
   * baseline code, and V8 optimises espeak-ng's hot functions only once they have run a while. Cold,
   * a 130-character sentence takes 2-3 s to speak on a 2-core machine; warm, about 100 ms. Without
   * this, the first reply a user hears (auto read-aloud) would start seconds late.
   */
  async warmUp(): Promise<void> {
    for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
      const started = performance.now();
      await this.espeak.synthesize(this.jobOf(WARM_UP_TEXT, TTS_VOICES[round % TTS_VOICES.length]!, 1));
      if (performance.now() - started < WARM_ENOUGH_MS) break;
    }
  }

  async synthesize(job: SpeechJob): Promise<SpeechAudio> {
    if (job.format === 'mp3') throw new DomainError('validation_failed', 'format: the offline voice makes pcm or wav, not mp3');
    let result;
    try {
      result = await this.espeak.synthesize(this.jobOf(job.text, job.voice, job.speed));
    } catch (error) {
      throw new SpeechEngineError('The offline voice could not speak this text.', { cause: error });
    }
    const pcm = pcmBytes(resample(result.samples, result.sampleRate, SPEECH_LIMITS.sampleRate));
    const audio = job.format === 'wav' ? wavOf(pcm, SPEECH_LIMITS.sampleRate) : pcm;
    return {
      contentType: SPEECH_CONTENT_TYPES[job.format],
      requestId: `offline-${randomUUID()}`,
      size: audio.length,
      body: (async function* () {
        yield audio;
      })(),
    };
  }

  close(): Promise<void> {
    return this.espeak.close();
  }

  private jobOf(text: string, voice: TtsVoice, speed: number): EspeakJob {
    const chosen = OFFLINE_VOICES[voice];
    return { text, voice: chosen.espeak, pitch: chosen.pitch, rate: espeakRateOf(speed) };
  }
}
