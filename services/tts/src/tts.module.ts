import { Module } from '@nestjs/common';
import { AudioCacheRepository } from './cache/audio-cache.repository';
import { speechEngineProvider } from './engines/engine.factory';
import { VoiceRateLimiter } from './speech/rate-limiter';
import { SpeechService } from './speech/speech.service';
import { TtsHandlers } from './speech/tts.handlers';
import { TranscriptionService } from './stt/transcription.service';
import { transcriberProvider } from './stt/transcriber';

/**
 * The tts service: speech from text (offline Flite or espeak-ng, OpenAI, or an OpenAI-compatible server),
 * a bounded cache of what it spoke, and speech-to-text for the voice mode. The platform adds its
 * health handler, its database (schema `tts`), export, purge and merge around this module.
 */
@Module({
  controllers: [TtsHandlers],
  providers: [speechEngineProvider, transcriberProvider, AudioCacheRepository, VoiceRateLimiter, SpeechService, TranscriptionService],
})
export class TtsModule {}
