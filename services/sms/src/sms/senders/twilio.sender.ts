import { Inject, Injectable } from '@nestjs/common';
import type { ErrorCode } from '@app/contracts';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import twilio from 'twilio';
import type { SmsConfig } from '../../config';
import { SmsSendError, type OutgoingSms, type SmsSendResult, type SmsSender } from './sms-sender';

/** Below the default RPC timeout (10 s), so the caller hears Twilio's failure rather than a 504. */
const TWILIO_TIMEOUT_MS = 8_000;

interface Refusal {
  code: ErrorCode;
  status: number;
  detail: (to: string) => string;
}

const MISCONFIGURED: Refusal = {
  code: 'unavailable',
  status: 502,
  detail: () => 'Text messages cannot be sent right now: the text message provider refused our account settings.',
};

/** Twilio's error codes (https://www.twilio.com/docs/api/errors) that deserve their own sentence. */
const REFUSALS: Record<number, Refusal> = {
  21211: { code: 'bad_request', status: 400, detail: (to) => `${to} is not a valid phone number.` },
  21614: { code: 'bad_request', status: 400, detail: (to) => `${to} is not a mobile number, so it cannot receive text messages.` },
  21612: { code: 'bad_request', status: 400, detail: (to) => `${to} cannot receive text messages from us.` },
  21408: { code: 'bad_request', status: 400, detail: (to) => `We cannot send text messages to ${to}'s country.` },
  21617: { code: 'bad_request', status: 400, detail: () => 'The message is too long to send as a text.' },
  21610: {
    code: 'forbidden',
    status: 403,
    detail: (to) => `${to} has unsubscribed from our texts (it replied STOP). Texting START to us from it subscribes again.`,
  },
  20429: {
    code: 'unavailable',
    status: 503,
    detail: () => 'Too many text messages are being sent right now; please try again shortly.',
  },
  // Credentials refused, or a sending number the account does not own: our configuration, not the user's fault.
  20003: MISCONFIGURED,
  20404: MISCONFIGURED,
  21212: MISCONFIGURED,
  21606: MISCONFIGURED,
  21659: MISCONFIGURED,
};

/** What the SDK throws for an error answer (RestException, or TwilioServiceException for RFC 9457 bodies). */
interface TwilioApiError {
  status: number;
  code?: number;
  message: string;
}

function isTwilioApiError(error: unknown): error is TwilioApiError {
  return error instanceof Error && typeof (error as { status?: unknown }).status === 'number' && !('isAxiosError' in error);
}

/** Sends through Twilio's Messages API with the real SDK. Bodies are never logged (they may hold login codes). */
@Injectable()
export class TwilioSender implements SmsSender {
  readonly provider = 'twilio';
  private readonly client: twilio.Twilio;
  private readonly from: string;

  constructor(
    @Inject(SERVICE_CONFIG) config: SmsConfig,
    private readonly logger: AppLogger,
  ) {
    if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN || !config.TWILIO_FROM_NUMBER) {
      throw new Error('TwilioSender needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM_NUMBER');
    }
    this.from = config.TWILIO_FROM_NUMBER;
    this.client = twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN, { timeout: TWILIO_TIMEOUT_MS, autoRetry: false });
    // Every domain keeps its base URL; Messages live under `api` (https://api.twilio.com by default).
    this.client.api.baseUrl = config.TWILIO_API_BASE_URL;
  }

  async send({ to, body, purpose, from, mediaUrls, statusCallback }: OutgoingSms): Promise<SmsSendResult> {
    try {
      const message = await this.client.messages.create({
        to,
        from: from ?? this.from,
        body,
        ...(mediaUrls?.length ? { mediaUrl: mediaUrls } : {}),
        ...(statusCallback ? { statusCallback } : {}),
      });
      this.logger.info({ msg: 'SMS sent through Twilio', to, purpose, status: message.status, sid: message.sid }, 'TwilioSender');
      return { status: message.status, providerMessageId: message.sid };
    } catch (error) {
      throw this.refusal(error, to, purpose);
    }
  }

  /** Turns what the SDK threw into a user-facing error; logs the provider's side (never the body or a credential). */
  private refusal(error: unknown, to: string, purpose: string): SmsSendError {
    if (isTwilioApiError(error)) {
      const refusal =
        (error.code !== undefined ? REFUSALS[error.code] : undefined) ??
        (error.status === 401 ? MISCONFIGURED : undefined) ??
        (error.status === 429 ? REFUSALS[20429] : undefined);
      const providerError = `Twilio ${error.code ?? 'error'} (HTTP ${error.status}): ${error.message}`;
      this.logger.warn(
        { msg: 'Twilio refused an SMS', to, purpose, http_status: error.status, twilio_code: error.code, twilio_message: error.message },
        'TwilioSender',
      );
      const retryable = error.status >= 500 || error.status === 429;
      if (refusal) return new SmsSendError(refusal.code, refusal.detail(to), refusal.status, providerError, retryable);
      const detail =
        error.status >= 500
          ? 'The text message provider is unavailable; please try again shortly.'
          : `The text message provider refused the message (error ${error.code ?? error.status}).`;
      return new SmsSendError('unavailable', detail, 502, providerError, retryable);
    }
    // No answer at all: network failure, timeout. Only the error's code and message are kept:
    // the error object itself carries the request, Authorization header included.
    const reason = error instanceof Error ? `${(error as { code?: string }).code ?? error.name}: ${error.message}` : String(error);
    this.logger.warn({ msg: 'Twilio could not be reached', to, purpose, reason }, 'TwilioSender');
    return new SmsSendError(
      'unavailable',
      'The text message provider could not be reached; please try again shortly.',
      502,
      `Twilio unreachable: ${reason}`,
      true,
    );
  }
}
