import { transcribe as defaultTranscribe } from '../api/speechApi';
import { effectiveMuted, voiceModeReducer, type VoiceModeEvent } from '../utils/micState';
import { PcmRecorder } from './pcmRecorder';
import { readAloud } from './readAloud';
import { speechStore, voiceModeStore } from './speechStore';

/** Level (RMS of the microphone, 0..1) above which the user is speaking. */
const SPEECH_LEVEL = 0.02;
/** Silence after speech that ends an utterance. */
const END_SILENCE_MS = 1_000;
/** How often the level is read. */
const TICK_MS = 50;
/** A reply that never starts speaking gives the microphone back after this. */
const REPLY_TIMEOUT_MS = 90_000;

export type VoiceModeOptions = {
  /** Sends the transcribed text as a message (the chat's own send). */
  send: (text: string) => void;
  maxSeconds?: number;
};

/**
 * Voice mode: the microphone records the user (getUserMedia, then raw samples from the audio graph
 * sent as a 16 kHz mono WAV: PcmRecorder) until a silence (an AnalyserNode's level) or a tap ends
 * the utterance; the audio is transcribed, sent as a message,
 * and the reply is spoken. The microphone is muted (track disabled, recorder stopped) from the end
 * of the utterance until the reply has been spoken, so the assistant never hears itself; a tap
 * while it speaks stops it and opens the microphone again (barge-in).
 */
class VoiceModeController {
  private stream: MediaStream | null = null;
  private track: MediaStreamTrack | null = null;
  private recorder: PcmRecorder | null = null;
  private analysisContext: AudioContext | null = null;
  private source: MediaStreamAudioSourceNode | null = null;
  private analyser: AnalyserNode | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private heard = false;
  private lastLoud = 0;
  private startedAt = 0;
  private options: VoiceModeOptions | null = null;
  private awaitingSession = 0;
  private replyTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  transcribe = defaultTranscribe;

  private dispatch(event: VoiceModeEvent): void {
    const before = voiceModeStore.get();
    const next = voiceModeReducer(before, event);
    voiceModeStore.set(next);
    this.apply();
  }

  /** The microphone follows the state: enabled only while listening to a user who is not muted. */
  private apply(): void {
    const state = voiceModeStore.get();
    const muted = effectiveMuted(state, state.assistantSpeaking);
    if (this.track) this.track.enabled = !muted;
    const recorder = this.recorder;
    if (!recorder) {
      // Nothing recording yet (voice mode just started, or the last utterance was sent): listening opens a recording.
      if (!muted && state.phase === 'listening') this.record();
      return;
    }
    if (muted && recorder.state === 'recording') {
      // The user's own mute pauses the utterance; the system's ends it (nothing is recorded while the assistant speaks).
      if (state.phase === 'listening' && state.intent === 'muted' && !state.assistantSpeaking) recorder.pause();
      else this.discardRecording();
    } else if (!muted && recorder.state === 'paused') {
      recorder.resume();
    }
    if (!muted && state.phase === 'listening' && recorder.state === 'inactive') this.record();
  }

  async start(options: VoiceModeOptions): Promise<void> {
    if (voiceModeStore.get().phase !== 'off') return;
    this.options = options;
    this.dispatch({ type: 'start' });
    readAloud.engine.init();
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      });
    } catch (error) {
      this.dispatch({ type: 'fail', error: microphoneError(error) });
      return;
    }
    if (voiceModeStore.get().phase !== 'starting') return this.release();
    this.track = this.stream.getAudioTracks()[0] ?? null;
    const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext: typeof AudioContext }).webkitAudioContext;
    this.analysisContext = new Context();
    this.analyser = this.analysisContext.createAnalyser();
    this.analyser.fftSize = 1024;
    this.source = this.analysisContext.createMediaStreamSource(this.stream);
    this.source.connect(this.analyser);
    this.unsubscribe = speechStore.subscribe(() => this.onSpeech());
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.dispatch({ type: 'ready' });
  }

  /** The big button: ends the utterance while listening, interrupts the assistant while it speaks. */
  tap(): void {
    const { phase } = voiceModeStore.get();
    if (phase === 'listening' && this.recorder?.state === 'recording') this.endUtterance();
    else if (phase === 'speaking' || phase === 'thinking') this.bargeIn();
  }

  bargeIn(): void {
    readAloud.stop();
    this.awaitingSession = Number.POSITIVE_INFINITY;
    this.clearReplyTimer();
    voiceModeStore.set({ assistantSpeaking: false });
    this.dispatch({ type: 'barge-in' });
  }

  toggleMute(): void {
    this.dispatch({ type: 'toggle-mute' });
  }

  stop(): void {
    readAloud.stop();
    this.release();
    voiceModeStore.set({ assistantSpeaking: false });
    this.dispatch({ type: 'stop' });
  }

  private release(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.clearReplyTimer();
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.recorder = null;
    this.source = null;
    this.stream?.getTracks().forEach((track) => track.stop());
    this.stream = null;
    this.track = null;
    void this.analysisContext?.close().catch(() => undefined);
    this.analysisContext = null;
    this.analyser = null;
  }

  private record(): void {
    if (!this.stream || !this.analysisContext || !this.source) return;
    this.heard = false;
    this.startedAt = performance.now();
    const recorder = new PcmRecorder(this.analysisContext, this.source);
    this.recorder = recorder;
    recorder.start();
  }

  private discardRecording(): void {
    const recorder = this.recorder;
    if (!recorder) return;
    if (recorder.state !== 'inactive') recorder.stop();
    this.recorder = null;
  }

  private level(): number {
    const analyser = this.analyser;
    if (!analyser) return 0;
    const samples = new Float32Array(analyser.fftSize);
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    return Math.sqrt(sum / samples.length);
  }

  /** Silence detection: speech heard, then a second of silence, ends the utterance. */
  private tick(): void {
    const state = voiceModeStore.get();
    if (state.phase !== 'listening' || this.recorder?.state !== 'recording') return;
    const now = performance.now();
    if (this.level() > SPEECH_LEVEL) {
      this.heard = true;
      this.lastLoud = now;
    }
    const maxMs = (this.options?.maxSeconds ?? 60) * 1000;
    if ((this.heard && now - this.lastLoud > END_SILENCE_MS) || now - this.startedAt > maxMs) {
      if (this.heard) this.endUtterance();
      else {
        this.discardRecording();
        this.apply();
      }
    } else if (!this.heard && now - this.startedAt > 20_000) {
      // Nothing said for a while: start a fresh recording rather than keep the silence.
      this.discardRecording();
      this.apply();
    }
  }

  private endUtterance(): void {
    const recorder = this.recorder;
    if (!recorder || recorder.state === 'inactive') return;
    const recording = recorder.stop();
    this.recorder = null;
    this.dispatch({ type: 'utterance-end' });
    void this.transcribeAndSend(recording);
  }

  private async transcribeAndSend(audio: Blob): Promise<void> {
    let text = '';
    try {
      text = (await this.transcribe(audio)).trim();
    } catch (error) {
      this.dispatch({ type: 'fail', error: `The recording could not be transcribed: ${(error as Error)?.message ?? error}` });
      return;
    }
    if (voiceModeStore.get().phase !== 'transcribing') return;
    // The reply to this message is the next session the read-aloud controller starts.
    this.awaitingSession = speechStore.get().session + 1;
    this.dispatch({ type: 'transcribed', text });
    if (!text) return;
    this.replyTimer = setTimeout(() => this.dispatch({ type: 'reply-done' }), REPLY_TIMEOUT_MS);
    this.options?.send(text);
  }

  private clearReplyTimer(): void {
    if (this.replyTimer) clearTimeout(this.replyTimer);
    this.replyTimer = null;
  }

  /** The reply's speech: playing mutes the microphone; once complete and silent, the user speaks again. */
  private onSpeech(): void {
    const speech = speechStore.get();
    const playing = speech.state === 'playing' || speech.state === 'paused';
    if (voiceModeStore.get().assistantSpeaking !== playing) {
      voiceModeStore.set({ assistantSpeaking: playing });
      this.apply();
    }
    const { phase } = voiceModeStore.get();
    if ((phase !== 'thinking' && phase !== 'speaking') || speech.session < this.awaitingSession) return;
    if (playing && phase === 'thinking') this.dispatch({ type: 'reply-speaking' });
    if (speech.complete && speech.state === 'idle') {
      this.clearReplyTimer();
      this.dispatch({ type: 'reply-done' });
    }
  }
}

function microphoneError(error: unknown): string {
  const name = (error as Error)?.name;
  if (name === 'NotAllowedError') return 'The microphone is blocked: allow it in the browser to use voice mode.';
  if (name === 'NotFoundError') return 'No microphone was found.';
  return `The microphone could not be opened: ${(error as Error)?.message ?? String(error)}`;
}

export const voiceMode = new VoiceModeController();
