import type { FastifyRequest } from 'fastify';
import { isSafeText } from '@app/contracts';
import type { TwilioWebhook } from '@app/contracts/sms';
import { publicUrlFor } from '@app/platform';

/**
 * The URL Twilio signed: PUBLIC_URL (what Twilio was told to call) followed by the path and query
 * the request arrived with; without PUBLIC_URL, the request's own origin (development, tests).
 */
export function signedUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrlFor(publicUrl, request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
}

/**
 * A Twilio form post as the sms service checks it: the fields as text, the signature, the URL. A
 * value the bus cannot carry as text (a NUL byte in a text someone sent) travels in base64 and is
 * named in `encoded`: the service checks the signature on the bytes Twilio signed, then cleans the
 * text, so such a text is stored and answered instead of refused (Twilio does not retry a 4xx).
 */
export function twilioWebhookOf(request: FastifyRequest, publicUrl: string | undefined): TwilioWebhook {
  const body = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const params: TwilioWebhook['params'] = {};
  const encoded: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : null;
    if (!values || !isSafeText(name)) continue;
    const safe = values.every(isSafeText);
    const carried = safe ? values : values.map((v) => Buffer.from(v, 'utf8').toString('base64'));
    if (!safe) encoded.push(name);
    params[name] = typeof value === 'string' ? carried[0] : carried;
  }
  const signature = request.headers['x-twilio-signature'];
  return {
    url: signedUrl(request, publicUrl),
    signature: typeof signature === 'string' ? signature : '',
    params,
    ...(encoded.length ? { encoded } : {}),
  };
}

/** An empty TwiML answer: nothing to say in the webhook's answer (the reply goes out through the REST API). */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
