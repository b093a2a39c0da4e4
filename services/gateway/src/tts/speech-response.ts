import { TTS_REQUEST_ID_HEADER, type SpeechChunk } from '@app/contracts/tts';
import type { FastifyReply } from 'fastify';
import { headAndBody } from '../http/headed-stream';

/**
 * Sends synthesised audio that arrives as frames of `tts.speech.synthesize`: the head decides the
 * headers (a refusal before it is an ordinary `{detail}` answer: 404, 413, 422, 429, 502), the
 * chunks are written as they come, with the response's backpressure.
 */
export async function sendSpeechStream(reply: FastifyReply, frames: AsyncIterable<SpeechChunk>): Promise<FastifyReply> {
  const { head, body } = await headAndBody(frames, 'tts service');
  reply
    .status(200)
    .header('content-type', head.content_type)
    .header(TTS_REQUEST_ID_HEADER, head.request_id)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store');
  if (head.size !== null) reply.header('content-length', String(head.size));
  return reply.send(body);
}
