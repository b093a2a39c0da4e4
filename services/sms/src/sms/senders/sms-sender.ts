import type { SmsMessage } from '@app/contracts/sms';
import { DomainError } from '@app/platform';
import type { ErrorCode } from '@app/contracts';
import type { SmsProvider } from '../../config';

export interface OutgoingSms {
  to: string;
  body: string;
  purpose: SmsMessage['purpose'];
  /** The sending number (a group's number); the configured one by default. */
  from?: string;
  /** Public URLs of images to send as MMS media. */
  mediaUrls?: string[];
  /** Where Twilio posts this message's delivery status. */
  statusCallback?: string;
}

export interface SmsSendResult {
  /** The provider's status: `delivered` (console), `queued` or `accepted` (Twilio). */
  status: string;
  /** The provider's id for the message (Twilio's SID). */
  providerMessageId: string | null;
}

/** Where texts go: the console sink (development) or Twilio. */
export interface SmsSender {
  readonly provider: SmsProvider;
  /** Sends one text; throws an SmsSendError when the provider refuses it. */
  send(sms: OutgoingSms): Promise<SmsSendResult>;
}

export const SMS_SENDER = Symbol('SMS_SENDER');

/** A text the provider refused: `detail` is for the user, `providerError` is what we store. */
export class SmsSendError extends DomainError {
  constructor(
    code: ErrorCode,
    detail: string,
    status: number,
    readonly providerError: string,
    /** Worth trying again later: the provider failed (5xx), asked to slow down (429) or could not be reached. */
    readonly retryable = false,
  ) {
    super(code, detail, status);
    this.name = 'SmsSendError';
  }
}
