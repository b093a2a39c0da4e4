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
      num_media: '0',
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
    answer(201, message);
  }
}
