import { recordingOf } from '../utils/wav';

/** Samples per block the recorder takes from the audio graph (about 85 ms at 48 kHz). */
const BLOCK = 4096;

/**
 * Records the microphone as raw samples from the audio graph (rather than MediaRecorder's
 * webm/opus) and gives the utterance as a 16 kHz mono WAV: what every whisper server reads as it is.
 * A ScriptProcessorNode, silenced before the speakers, copies each block while recording; it works
 * in every browser without a worklet module file.
 */
export class PcmRecorder {
  state: 'recording' | 'paused' | 'inactive' = 'inactive';
  private chunks: Float32Array[] = [];
  private readonly processor: ScriptProcessorNode;
  private readonly mute: GainNode;

  constructor(
    private readonly context: BaseAudioContext,
    private readonly source: AudioNode,
  ) {
    this.processor = context.createScriptProcessor(BLOCK, 1, 1);
    this.mute = context.createGain();
    this.mute.gain.value = 0;
    this.processor.onaudioprocess = (event) => {
      if (this.state === 'recording') this.chunks.push(event.inputBuffer.getChannelData(0).slice());
    };
  }

  start(): void {
    this.chunks = [];
    this.source.connect(this.processor);
    this.processor.connect(this.mute);
    this.mute.connect(this.context.destination);
    this.state = 'recording';
  }

  pause(): void {
    if (this.state === 'recording') this.state = 'paused';
  }

  resume(): void {
    if (this.state === 'paused') this.state = 'recording';
  }

  /** Ends the recording: the utterance as a WAV (16 kHz, mono, 16-bit). */
  stop(): Blob {
    this.state = 'inactive';
    this.processor.onaudioprocess = null;
    try {
      this.source.disconnect(this.processor);
    } catch {
      // Already disconnected (the graph was closed).
    }
    this.processor.disconnect();
    this.mute.disconnect();
    const recording = recordingOf(this.chunks, this.context.sampleRate);
    this.chunks = [];
    return recording;
  }
}
