import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { optedOutOfTextsDetail, type SmsMessage } from '@app/contracts/sms';
import { AppLogger, DomainError, runPeriodically, SERVICE_CONFIG, type Periodic } from '@app/platform';
import type { SmsConfig } from '../config';
import { maskCodes } from '../sms/mask-codes';
import { SendCeiling } from '../channel/send-ceiling';
import { SMS_SENDER, SmsSendError, type OutgoingSms, type SmsSender } from '../sms/senders/sms-sender';
import { NumbersRepository } from '../channel/store/numbers.repository';
import { MessagesRepository } from './messages.repository';
import type { OutboundMessageEntity } from './outbound-message.entity';

/** A text to send, and the account it is for when the sender knows it. */
export interface SmsRequest extends OutgoingSms {
  userId?: string | null;
}

const HOUR_MS = 3600_000;

/** A text past the operator's ceiling (SMS_TEXTS_PER_MINUTE or SMS_TEXTS_PER_DAY): 503 with Retry-After. */
export const TEXTS_PAUSED = 'This service is not sending texts for the moment (its ceiling of texts is reached). Please try again later.';

/**
 * Sends texts through the configured provider and keeps a record of each. Sign-in code texts are
 * kept for SMS_CODE_TEXT_RETENTION_HOURS (the code is dead long before), then deleted.
 */
@Injectable()
export class MessagesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private sweeper?: Periodic;

  constructor(
    @Inject(SMS_SENDER) private readonly sender: SmsSender,
    private readonly messages: MessagesRepository,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'number'>,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<
      SmsConfig,
      'DEV_SMS_INBOX' | 'NODE_ENV' | 'SMS_CODE_TEXT_RETENTION_HOURS' | 'TWILIO_FROM_NUMBER' | 'SMS_DEV_NUMBER'
    >,
    private readonly logger: AppLogger,
    @Inject(SendCeiling) private readonly ceiling: Pick<SendCeiling, 'reserve'>,
  ) {}

  onApplicationBootstrap(): void {
    const everyMs = Math.min(HOUR_MS, (this.config.SMS_CODE_TEXT_RETENTION_HOURS * HOUR_MS) / 4);
    this.sweeper = runPeriodically(() => this.deleteExpiredCodeTexts(), everyMs, this.logger, 'SmsRetention', { immediately: true });
  }

  onApplicationShutdown(): void {
    this.sweeper?.stop();
  }

  /**
   * Stores the message, sends it, records the provider's answer. A refused message stays stored
   * as `failed` with the provider's reason, and the caller gets the refusal. In production the
   * stored copy of a sign-in code text has the code masked: nobody reading the table can sign in.
   */
  async send(sms: SmsRequest): Promise<SmsMessage> {
    // After STOP nothing at all is texted, sign-in codes included (the auth service asks first;
    // this holds whoever asks).
    if (sms.purpose === 'login_code' && (await this.optedOut(sms.to))) {
      throw DomainError.conflict(optedOutOfTextsDetail(this.serviceNumber));
    }
    // The operator's ceiling holds for these texts too: past it, the caller is asked to come back.
    if ((await this.ceiling.reserve()) !== 'send') throw DomainError.unavailable(TEXTS_PAUSED, 60);
    const stored = await this.messages.insert({
      id: randomUUID(),
      toNumber: sms.to,
      userId: sms.userId ?? null,
      body: sms.purpose === 'login_code' && this.config.NODE_ENV === 'production' ? maskCodes(sms.body) : sms.body,
      purpose: sms.purpose,
      provider: this.sender.provider,
      status: 'pending',
    });
    const outgoing: OutgoingSms = { to: sms.to, body: sms.body, purpose: sms.purpose };
    try {
      const result = await this.sender.send(outgoing);
      await this.messages.recordOutcome(stored.id, { status: result.status, providerMessageId: result.providerMessageId, error: null });
      return toSmsMessage({ ...stored, status: result.status });
    } catch (error) {
      const reason = error instanceof SmsSendError ? error.providerError : 'Unexpected error while sending';
      await this.messages.recordOutcome(stored.id, { status: 'failed', providerMessageId: null, error: reason });
      throw error;
    }
  }

  /** Whether a number opted out of texts, and the number it texts START to. */
  async optOut(phoneNumber: string): Promise<{ opted_out: boolean; service_number: string }> {
    return { opted_out: await this.optedOut(phoneNumber), service_number: this.serviceNumber };
  }

  /** The number texts come from (and STOP and START go to). */
  /** Whether the number texted STOP (the number's row, kept by the text channel). */
  private async optedOut(phoneNumber: string): Promise<boolean> {
    return (await this.numbers.number(phoneNumber))?.optedOut ?? false;
  }

  private get serviceNumber(): string {
    return this.sender.provider === 'twilio' && this.config.TWILIO_FROM_NUMBER
      ? this.config.TWILIO_FROM_NUMBER
      : this.config.SMS_DEV_NUMBER;
  }

  /** Whether the development inbox may show anything at all. */
  get devInboxEnabled(): boolean {
    return this.sender.provider === 'console' && this.config.DEV_SMS_INBOX && this.config.NODE_ENV !== 'production';
  }

  /**
   * What the console sink "sent" to one number, newest first; nothing when texts really leave
   * (Twilio), when DEV_SMS_INBOX is off, or in production. Never every number at once: without
   * a number it only says whether it is enabled.
   */
  async devInbox(to: string | undefined, limit: number): Promise<{ enabled: boolean; messages: SmsMessage[] }> {
    if (!this.devInboxEnabled) return { enabled: false, messages: [] };
    if (!to) return { enabled: true, messages: [] };
    const newest = await this.messages.newestTo('console', to, limit);
    return { enabled: true, messages: newest.map(toSmsMessage) };
  }

  /** Deletes the sign-in code texts older than the retention; answers how many went. */
  async deleteExpiredCodeTexts(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.SMS_CODE_TEXT_RETENTION_HOURS * HOUR_MS);
    const deleted = await this.messages.deleteOlderThan('login_code', before);
    if (deleted > 0) this.logger.log({ msg: 'Deleted old sign-in code texts', deleted }, 'SmsRetention');
    return deleted;
  }
}

function toSmsMessage(message: OutboundMessageEntity): SmsMessage {
  return {
    message_id: message.id,
    to: message.toNumber,
    body: message.body,
    purpose: message.purpose as SmsMessage['purpose'],
    provider: message.provider as SmsMessage['provider'],
    status: message.status,
    created_at: message.createdAt.toISOString(),
  };
}
