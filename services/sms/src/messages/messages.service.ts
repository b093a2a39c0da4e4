import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { SmsMessage } from '@app/contracts/sms';
import { SMS_SENDER, SmsSendError, type OutgoingSms, type SmsSender } from '../sms/senders/sms-sender';
import { MessagesRepository } from './messages.repository';
import type { OutboundMessageEntity } from './outbound-message.entity';

/** Sends texts through the configured provider and keeps a record of each. */
@Injectable()
export class MessagesService {
  constructor(
    @Inject(SMS_SENDER) private readonly sender: SmsSender,
    private readonly messages: MessagesRepository,
  ) {}

  /**
   * Stores the message, sends it, records the provider's answer. A refused message stays stored
   * as `failed` with the provider's reason, and the caller gets the refusal.
   */
  async send(sms: OutgoingSms): Promise<SmsMessage> {
    const stored = await this.messages.insert({
      id: randomUUID(),
      toNumber: sms.to,
      body: sms.body,
      purpose: sms.purpose,
      provider: this.sender.provider,
      status: 'pending',
    });
    try {
      const result = await this.sender.send(sms);
      await this.messages.recordOutcome(stored.id, { status: result.status, providerMessageId: result.providerMessageId, error: null });
      return toSmsMessage({ ...stored, status: result.status });
    } catch (error) {
      const reason = error instanceof SmsSendError ? error.providerError : 'Unexpected error while sending';
      await this.messages.recordOutcome(stored.id, { status: 'failed', providerMessageId: null, error: reason });
      throw error;
    }
  }

  /** What the console sink "sent", newest first; nothing when texts really leave (Twilio). */
  async devInbox(limit: number): Promise<{ enabled: boolean; messages: SmsMessage[] }> {
    if (this.sender.provider !== 'console') return { enabled: false, messages: [] };
    const newest = await this.messages.newest('console', limit);
    return { enabled: true, messages: newest.map(toSmsMessage) };
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
