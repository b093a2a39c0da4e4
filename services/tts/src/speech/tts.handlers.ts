import { Controller } from '@nestjs/common';
import { TTS_RPC } from '@app/contracts/tts';
import { RpcHandler, type RpcInput } from '@app/platform';
import { TranscriptionService } from '../stt/transcription.service';
import { SpeechService } from './speech.service';

/** The tts service's calls: each a one-line delegation. */
@Controller()
export class TtsHandlers {
  constructor(
    private readonly speech: SpeechService,
    private readonly transcription: TranscriptionService,
  ) {}

  @RpcHandler(TTS_RPC.voices)
  voices() {
    return this.speech.voices();
  }

  @RpcHandler(TTS_RPC.synthesize)
  synthesize({ caller, data }: RpcInput<typeof TTS_RPC.synthesize>) {
    return this.speech.synthesize(caller, data);
  }

  @RpcHandler(TTS_RPC.sttInfo)
  sttInfo() {
    return this.transcription.info();
  }

  @RpcHandler(TTS_RPC.sttBegin)
  sttBegin({ caller, data }: RpcInput<typeof TTS_RPC.sttBegin>) {
    return this.transcription.begin(caller, data.content_type);
  }

  @RpcHandler(TTS_RPC.sttChunk)
  sttChunk({ caller, data }: RpcInput<typeof TTS_RPC.sttChunk>) {
    return this.transcription.chunk(caller, data);
  }

  @RpcHandler(TTS_RPC.sttCommit)
  sttCommit({ caller, data }: RpcInput<typeof TTS_RPC.sttCommit>) {
    return this.transcription.commit(caller, data.upload_id);
  }

  @RpcHandler(TTS_RPC.sttAbort)
  sttAbort({ caller, data }: RpcInput<typeof TTS_RPC.sttAbort>) {
    return this.transcription.abort(caller, data.upload_id);
  }
}
