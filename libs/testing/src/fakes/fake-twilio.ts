import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import twilio from 'twilio';
import { basicCredentials, formFields, LocalHttpServer, sendJson } from './http-server';

/** A message resource as Twilio's REST API answers it (the fields our code may read). */
export interface FakeTwilioMessage {
  sid: string;
  account_sid: string;
  api_version: '2010-04-01';
  to: string;
  from: string;
  body: string;
  status: string;
  direction: 'outbound-api';
  num_segments: string;
  num_media: string;
  error_code: number | null;
  error_message: string | null;
  price: string | null;
  price_unit: string;
  messaging_service_sid: string | null;
  date_created: string;
  date_updated: string;
  date_sent: string | null;
  uri: string;
  subresource_uris: { media: string };
}

/** A failure scripted for the next send: Twilio's HTTP status, error code and message. */
export interface FakeTwilioFailure {
  status: number;
  code: number;
  message: string;
}

/** One request the fake received, whatever it answered. */
export interface FakeTwilioRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** Whether the Basic credentials were the account's. */
  authenticated: boolean;
  status: number;
}

export interface FakeTwilioOptions {
  /** `AC` and 32 hex digits; a random one by default. */
  accountSid?: string;
  /** 32 hex digits by default. */
  authToken?: string;
}

const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

/** Twilio's dates: RFC 2822 with a numeric zone, e.g. `Thu, 20 Nov 2025 10:00:00 +0000`. */
function rfc2822(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

function twilioError(code: number, message: string, status: number) {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

/**
 * The part of Twilio's REST API the product uses: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
 * (form-encoded To, From, Body) behind HTTP Basic auth, answered like Twilio does. Point the real SDK at it
 * with `client.api.baseUrl = fake.url` (or TWILIO_API_BASE_URL for the sms service).
 */
export class FakeTwilio {
  readonly accountSid: string;
  private token: string;
  private readonly server = new LocalHttpServer((request, response, body) => this.handle(request, response, body));
  private readonly sent: FakeTwilioMessage[] = [];
  private readonly received: FakeTwilioRequest[] = [];
  private readonly failures: FakeTwilioFailure[] = [];
  private readonly listeners = new Set<(message: FakeTwilioMessage) => void>();
  private readonly media = new Map<string, { bytes: Buffer; contentType: string }>();

  constructor(options: FakeTwilioOptions = {}) {
    this.accountSid = options.accountSid ?? `AC${randomBytes(16).toString('hex')}`;
    this.token = options.authToken ?? randomBytes(16).toString('hex');
  }

  get authToken(): string {
    return this.token;
  }

  get url(): string {
    return this.server.url;
  }

  start(): Promise<{ url: string }> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  /** The messages Twilio accepted, oldest first. */
  messages(): FakeTwilioMessage[] {
    return [...this.sent];
  }

  /** Every request received (accepted, refused or unauthenticated), oldest first. */
  requests(): FakeTwilioRequest[] {
    return [...this.received];
  }

  /** The next send (after authentication) is refused like this, e.g. `{status: 400, code: 21211, message: ...}`. Queued. */
  failNext(failure: FakeTwilioFailure): void {
    this.failures.push(failure);
  }

  /** As if the token were rotated in Twilio's console: the old one is refused from now on (401, code 20003). */
  rotateAuthToken(authToken = randomBytes(16).toString('hex')): string {
    this.token = authToken;
    return authToken;
  }

  /** Calls `listener` with each message as it is accepted (the benchmark times replies by it); answers the unsubscribe. */
  onMessage(listener: (message: FakeTwilioMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The messages accepted for one number, oldest first. */
  messagesTo(to: string): FakeTwilioMessage[] {
    return this.sent.filter((m) => m.to === to);
  }

  /**
   * Posts an incoming text to the product's Messaging webhook as Twilio does: form-encoded, with the
   * X-Twilio-Signature the SDK computes for `signedUrl` (PUBLIC_URL + path; by default the URL posted
   * to). `signature` overrides it (a forged request); `messageSid` repeats one (Twilio's retry).
   */
  async sendInbound(
    webhookUrl: string,
    text: {
      from: string;
      to: string;
      body: string;
      messageSid?: string;
      mediaUrls?: string[];
      /** The type Twilio reports for each picture (image/png by default). */
      mediaTypes?: string[];
      signature?: string;
      signedUrl?: string;
    },
  ): Promise<{ status: number; body: string; contentType: string | null; messageSid: string }> {
    const messageSid = text.messageSid ?? `SM${randomBytes(16).toString('hex')}`;
    const params: Record<string, string> = {
      MessageSid: messageSid,
      SmsSid: messageSid,
      AccountSid: this.accountSid,
      From: text.from,
      To: text.to,
      Body: text.body,
      NumMedia: String(text.mediaUrls?.length ?? 0),
      NumSegments: '1',
    };
    text.mediaUrls?.forEach((url, i) => {
      params[`MediaUrl${i}`] = url;
      params[`MediaContentType${i}`] = text.mediaTypes?.[i] ?? 'image/png';
    });
    return { ...(await this.post(webhookUrl, params, text.signature, text.signedUrl)), messageSid };
  }

  /** Posts a delivery status callback for one of the messages it accepted (`delivered`, `undelivered`...). */
  async sendStatus(
    webhookUrl: string,
    message: { sid: string; to: string; from: string },
    status: string,
    errorCode?: string,
  ): Promise<{ status: number; body: string }> {
    const params: Record<string, string> = {
      MessageSid: message.sid,
      SmsSid: message.sid,
      AccountSid: this.accountSid,
      From: message.from,
      To: message.to,
      MessageStatus: status,
      SmsStatus: status,
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    };
    return this.post(webhookUrl, params);
  }

  private async post(url: string, params: Record<string, string>, signature?: string, signedUrl?: string) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature ?? this.signature(signedUrl ?? url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: response.status, body: await response.text(), contentType: response.headers.get('content-type') };
  }

  /** Forgets messages, requests and scripted failures. */
  reset(): void {
    this.sent.length = 0;
    this.received.length = 0;
    this.failures.length = 0;
  }

  /**
   * The X-Twilio-Signature Twilio would send with a webhook to `url` carrying these form `params`
   * (HMAC-SHA1 with the auth token over the URL and the sorted name-value pairs, base64), computed
   * by the real SDK.
   */
  signature(url: string, params: Record<string, string>): string {
    return twilio.getExpectedTwilioSignature(this.token, url, params);
  }

  /**
   * Hosts a picture as Twilio hosts an incoming MMS's media: at its API origin, behind the
   * account's Basic auth (as with "HTTP Basic Auth for media" on). Answers the MediaUrl to send.
   */
  hostMedia(bytes: Buffer, contentType = 'image/png'): string {
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages/MM${randomBytes(16).toString('hex')}/Media/ME${randomBytes(16).toString('hex')}`;
    this.media.set(path, { bytes, contentType });
    return `${this.url}${path}`;
  }

  /** Whether a signature is the one Twilio would send (the SDK's own check). */
  validSignature(signature: string, url: string, params: Record<string, string>): boolean {
    return twilio.validateRequest(this.token, signature, url, params);
  }

  private handle(request: IncomingMessage, response: ServerResponse, body: string): void {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const params = request.method === 'POST' ? formFields(body) : {};
    const credentials = basicCredentials(request);
    const authenticated = credentials?.user === this.accountSid && credentials.password === this.token;
    const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
      this.received.push({ method: request.method ?? '', path, params, authenticated, status });
      sendJson(response, status, payload, headers);
    };

    const hosted = request.method === 'GET' ? this.media.get(path) : undefined;
    if (hosted) {
      this.received.push({ method: 'GET', path, params, authenticated, status: authenticated ? 200 : 401 });
      if (!authenticated) return void sendJson(response, 401, twilioError(20003, 'Authenticate', 401));
      response.writeHead(200, { 'content-type': hosted.contentType, 'content-length': String(hosted.bytes.length) });
      return void response.end(hosted.bytes);
    }
    const route = MESSAGES_PATH.exec(path);
    if (!route || request.method !== 'POST') {
      return answer(404, twilioError(20404, `The requested resource ${path} was not found`, 404));
    }
    if (!authenticated || route[1] !== this.accountSid) {
      return answer(
        401,
        { ...twilioError(20003, 'Authenticate', 401), detail: 'Your AccountSid or AuthToken was incorrect.' },
        { 'www-authenticate': 'Basic realm="Twilio API"' },
      );
    }
    if (!params.To) return answer(400, twilioError(21604, "A 'To' phone number is required.", 400));
    if (!params.From && !params.MessagingServiceSid) return answer(400, twilioError(21603, "A 'From' phone number is required.", 400));
    if (!params.Body && !params.MediaUrl) return answer(400, twilioError(21602, 'Message body is required.', 400));
    const failure = this.failures.shift();
    if (failure) return answer(failure.status, twilioError(failure.code, failure.message, failure.status));

    const sid = `SM${randomBytes(16).toString('hex')}`;
    const now = rfc2822(new Date());
    const uri = `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}`;
    const message: FakeTwilioMessage = {
      sid,
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      to: params.To,
      from: params.From ?? '',
      body: params.Body ?? '',
      status: 'queued',
      direction: 'outbound-api',
      num_segments: String(Math.max(1, Math.ceil((params.Body ?? '').length / 153))),
      num_media: params.MediaUrl ? '1' : '0',
      error_code: null,
      error_message: null,
      price: null,
      price_unit: 'USD',
      messaging_service_sid: params.MessagingServiceSid ?? null,
      date_created: now,
      date_updated: now,
      date_sent: null,
      uri: `${uri}.json`,
      subresource_uris: { media: `${uri}/Media.json` },
    };
    this.sent.push(message);
    for (const listener of this.listeners) listener(message);
    answer(201, message);
  }
}
