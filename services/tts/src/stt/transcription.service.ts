import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { AUDIO_TRANSFER, STT_AUDIO_TYPES, STT_NOT_CONFIGURED, type SttAudioType, type SttInfo } from '@app/contracts/tts';
import { AppLogger, DomainError, KEY_VALUE_STORE, SERVICE_CONFIG, userIdOf, type KeyValueStore } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { TtsConfig } from '../config';
import { engineFailureAnswer, SpeechEngineError } from '../engines/speech-engine';
import { VoiceRateLimiter } from '../speech/rate-limiter';
import { TRANSCRIBER, type Transcriber } from './transcriber';

export const RECORDING_NOT_FOUND = 'Recording not found (it may have expired).';
export const RECORDING_TOO_LARGE = 'The recording is too large.';
export const RECORDING_EMPTY = 'The recording is empty.';
export const UNSUPPORTED_AUDIO = `Send the recording as one of ${STT_AUDIO_TYPES.join(', ')}.`;
/** An unfinished recording is forgotten after this long. */
const RECORDING_TTL_SECONDS = 600;

interface Recording {
  userId: string;
  type: SttAudioType;
  received: number;
  next: number;
}

/** The type a Content-Type names (its parameters, such as codecs, set aside), when it is one taken. */
export function sttTypeOf(contentType: string): SttAudioType | null {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return (STT_AUDIO_TYPES as readonly string[]).includes(type) ? (type as SttAudioType) : null;
}

/**
 * Speech-to-text for the voice mode: a recording arrives in chunks (begin, chunk..., commit), kept
 * meanwhile in the platform's key-value store (Redis when distributed, so any replica can take any
 * chunk) for at most RECORDING_TTL_SECONDS, then sent to the transcription provider and forgotten.
 */
@Injectable()
export class TranscriptionService {
  constructor(
    @Inject(TRANSCRIBER) private readonly transcriber: Transcriber | null,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    private readonly limiter: VoiceRateLimiter,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<TtsConfig, 'STT_MAX_BYTES' | 'STT_MAX_SECONDS' | 'STT_SETUP_COMMAND'>,
    private readonly logger: AppLogger,
  ) {}

  async info(): Promise<SttInfo> {
    const available = await this.available();
    return {
      available,
      engine: available ? this.transcriber!.name : null,
      max_seconds: this.config.STT_MAX_SECONDS,
      max_bytes: this.config.STT_MAX_BYTES,
      setup_command: available || !this.transcriber ? null : this.config.STT_SETUP_COMMAND,
    };
  }

  async begin(caller: Caller, contentType: string) {
    const userId = userIdOf(caller);
    if (!(await this.available())) throw new DomainError('unavailable', STT_NOT_CONFIGURED, 503);
    const type = sttTypeOf(contentType);
    if (!type) throw new DomainError('unsupported_media_type', UNSUPPORTED_AUDIO);
    await this.limiter.take('stt', userId);
    const id = randomUUID();
    await this.save(id, { userId, type, received: 0, next: 0 });
    return { upload_id: id, chunk_bytes: AUDIO_TRANSFER.chunkBytes, max_bytes: this.config.STT_MAX_BYTES };
  }

  async chunk(caller: Caller, input: { upload_id: string; seq: number; data: string }) {
    const recording = await this.owned(caller, input.upload_id);
    if (input.seq !== recording.next) throw DomainError.conflict(`Expected chunk ${recording.next} of the recording, not ${input.seq}.`);
    const bytes = Buffer.byteLength(input.data, 'base64');
    if (recording.received + bytes > this.config.STT_MAX_BYTES) {
      await this.drop(input.upload_id, recording);
      throw new DomainError('payload_too_large', RECORDING_TOO_LARGE);
    }
    await this.kv.set(this.chunkKey(input.upload_id, input.seq), input.data, RECORDING_TTL_SECONDS);
    const next = { ...recording, received: recording.received + bytes, next: recording.next + 1 };
    await this.save(input.upload_id, next);
    return { received_bytes: next.received };
  }

  async commit(caller: Caller, uploadId: string) {
    const recording = await this.owned(caller, uploadId);
    const parts: Buffer[] = [];
    for (let seq = 0; seq < recording.next; seq++) {
      const data = await this.kv.get(this.chunkKey(uploadId, seq));
      if (data === null) {
        await this.drop(uploadId, recording);
        throw DomainError.notFound(RECORDING_NOT_FOUND);
      }
      parts.push(Buffer.from(data, 'base64'));
    }
    await this.drop(uploadId, recording);
    const audio = Buffer.concat(parts);
    if (audio.length === 0) throw new DomainError('validation_failed', RECORDING_EMPTY);
    if (!this.transcriber || !(await this.available())) throw new DomainError('unavailable', STT_NOT_CONFIGURED, 503);
    try {
      return { text: (await this.transcriber.transcribe(audio, recording.type)).trim() };
    } catch (error) {
      const answer = engineFailureAnswer(error, this.logger, 'Transcription failed');
      // The provider could not read what it was sent: the client's recording, a 422.
      if (error instanceof SpeechEngineError && error.undecodable) {
        throw new DomainError('validation_failed', 'The recording could not be understood as audio.');
      }
      throw answer;
    }
  }

  async abort(caller: Caller, uploadId: string) {
    const recording = await this.find(uploadId);
    if (!recording || recording.userId !== userIdOf(caller)) return { aborted: false };
    await this.drop(uploadId, recording);
    return { aborted: true };
  }

  private async available(): Promise<boolean> {
    return this.transcriber !== null && (await this.transcriber.available());
  }

  private recordingKey(id: string) {
    return `tts:stt:${id}`;
  }
  private chunkKey(id: string, seq: number) {
    return `tts:stt:${id}:${seq}`;
  }

  private async find(id: string): Promise<Recording | null> {
    const raw = await this.kv.get(this.recordingKey(id));
    return raw ? (JSON.parse(raw) as Recording) : null;
  }

  private async owned(caller: Caller, id: string): Promise<Recording> {
    const recording = await this.find(id);
    if (!recording || recording.userId !== userIdOf(caller)) throw DomainError.notFound(RECORDING_NOT_FOUND);
    return recording;
  }

  private save(id: string, recording: Recording): Promise<void> {
    return this.kv.set(this.recordingKey(id), JSON.stringify(recording), RECORDING_TTL_SECONDS);
  }

  private async drop(id: string, recording: Recording): Promise<void> {
    await this.kv.delete(this.recordingKey(id));
    for (let seq = 0; seq < recording.next; seq++) await this.kv.delete(this.chunkKey(id, seq));
  }
}
