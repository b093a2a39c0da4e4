import type { FastifyRequest } from 'fastify';
import type { TwilioWebhook } from '@app/contracts/sms';

/**
 * The URL Twilio signed: PUBLIC_URL (what Twilio was told to call) followed by the path and query
 * the request arrived with; without PUBLIC_URL, the request's own origin (development, tests).
 */
export function signedUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  const origin = publicUrl ? publicUrl.replace(/\/$/, '') : `${request.protocol}://${request.headers.host ?? 'localhost'}`;
  return `${origin}${request.url}`;
}

/** A Twilio form post as the sms service checks it: the fields as text, the signature, the URL. */
export function twilioWebhookOf(request: FastifyRequest, publicUrl: string | undefined): TwilioWebhook {
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const params: TwilioWebhook['params'] = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') params[name] = value;
    else if (Array.isArray(value)) params[name] = value.map(String);
  }
  const signature = request.headers['x-twilio-signature'];
  return { url: signedUrl(request, publicUrl), signature: typeof signature === 'string' ? signature : '', params };
}

/** An empty TwiML answer: nothing to say in the webhook's answer (the reply goes out through the REST API). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
