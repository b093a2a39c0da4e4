import { Body, Controller, Inject, Req, Res, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { parseContract } from '@app/contracts';
import { API } from '@app/contracts/gateway';
import { SPEECH_LIMITS, SpeechRequestSchema, TTS_RPC } from '@app/contracts/tts';
import { DomainError, RpcClient } from '@app/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import { callerOf } from '../http/request-context';
import { Route } from '../http/route';
import { GATEWAY_CONFIG } from '../tokens';
import { relayRecording } from './recording-relay';
import { sendSpeechStream } from './speech-response';

/**
 * Voice (issue 14): speech from text (audio streamed from the tts service) and speech-to-text for
 * the voice mode (the recording relayed in chunks). The voices and the STT status are plain proxies
 * (API.voice.voices, API.voice.sttInfo).
 */
@Controller()
export class TtsController implements OnModuleInit {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Recordings (audio/*) are not parsed: the request stream is handed to the route as it is and relayed in chunks. */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    if (!fastify.hasContentTypeParser('audio/webm'))
      fastify.addContentTypeParser(/^audio\//i, (_request, payload, done) => done(null, payload));
  }

  /** The body is checked here rather than by the declaration: a text over the body's limit is a 413, not a 422. */
  @Route(API.voice.speak)
  async speak(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const text = (body as { text?: unknown } | null)?.text;
    if (typeof text === 'string' && text.length > SPEECH_LIMITS.bodyTextMaxChars) {
      throw new DomainError('payload_too_large', `text: at most ${SPEECH_LIMITS.textMaxChars} characters can be read at once`);
    }
    const speech = parseContract(SpeechRequestSchema, body ?? {});
    const frames = this.rpc.stream(TTS_RPC.synthesize, speech, callerOf(request), { timeoutMs: this.config.STREAM_IDLE_TIMEOUT_MS });
    return sendSpeechStream(reply, frames);
  }

  @Route(API.voice.transcribe)
  transcribe(@Req() request: FastifyRequest) {
    return relayRecording(request, this.rpc, callerOf(request));
  }
}
