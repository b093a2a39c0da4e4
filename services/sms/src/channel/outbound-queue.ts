import { Inject, Injectable } from '@nestjs/common';
import { API } from '@app/contracts/gateway';
import { AppLogger, publicUrlFor, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../config';
import { SMS_SENDER, SmsSendError, type OutgoingSms, type SmsSender } from '../sms/senders/sms-sender';
import { destinationRefusal, type DestinationPolicy } from './destinations';
import { SendCeiling } from './send-ceiling';
import { NumbersRepository } from './store/numbers.repository';
import { OutboundRepository } from './store/outbound.repository';

/** Sends are given up on after this many attempts (Twilio down for long): the text is marked failed. */
export const MAX_SEND_ATTEMPTS = 8;
/** A send left `sending` longer than this was cut by a crash (the Twilio client gives up after 8 s). */
const STALE_SEND_MS = 30_000;
/** How long the queue's consumer waits for another worker's send to finish before coming back later. */
const HELD_WAIT_MS = 2_000;
const HELD_POLL_MS = 100;

/** The numbers the channel never texts (its own, blocked regions): provided by the module from the configuration. */
export const DESTINATION_POLICY = Symbol('DESTINATION_POLICY');

/** Thrown to have the bus deliver the event again after its back-off (250 ms, 1 s, 5 s, 15 s, 30 s...). */
export class RetryLater extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RetryLater';
  }
}

export type OutboundConfig = Pick<SmsConfig, 'PUBLIC_URL'>;

/**
 * The consumer of the outbound queue (`events.sms.outbound`, a durable JetStream consumer, or the
 * in-process event log in the embedded mode). Each event names a stored text; the text is claimed
 * (so a redelivered event, a second replica or a restart sends it at most once), checked against the
 * number's opt-out (a reply queued before a STOP is not sent), the numbers never texted (a blocked
 * region, a non-mobile range, the service's own) and the operator's ceiling (SMS_TEXTS_PER_MINUTE:
 * it waits; SMS_TEXTS_PER_DAY: it is held), then handed to the sender. Twilio's 5xx and 429 (and no
 * answer at all) are retried with the bus's back-off; other refusals are final.
 */
@Injectable()
export class OutboundQueue {
  private readonly statusCallback?: string;

  constructor(
    private readonly outbound: OutboundRepository,
    private readonly numbers: NumbersRepository,
    @Inject(SMS_SENDER) private readonly sender: SmsSender,
    @Inject(SERVICE_CONFIG) config: OutboundConfig,
    @Inject(DESTINATION_POLICY) private readonly destinations: DestinationPolicy,
    @Inject(SendCeiling) private readonly ceiling: Pick<SendCeiling, 'reserve'>,
    private readonly logger: AppLogger,
  ) {
    this.statusCallback = publicUrlFor(config.PUBLIC_URL, API.sms.twilioStatus.path);
  }

  /**
   * The fast path: the texts a transaction just queued, sent at once by whoever queued them (the
   * answer to one number, in order) once it has committed, instead of waiting their turn in the
   * queue's one consumer.
   * Nothing here throws: a text not sent now (claimed by the consumer first, a crash) is the
   * consumer's; one Twilio asks to retry goes back to the queue's events, with its back-off.
   */
  async sendNow(messageIds: string[]): Promise<void> {
    for (const id of messageIds) {
      try {
        await this.deliver(id, { fastPath: true });
      } catch (error) {
        if (error instanceof RetryLater) {
          await this.outbound.requeue(id, Date.now()).catch((failure: unknown) => this.logFailure(id, failure));
        } else this.logFailure(id, error);
      }
    }
  }

  private logFailure(id: string, error: unknown): void {
    this.logger.warn({ msg: 'A text was left to the outbound queue', message_id: id, error: String(error) }, 'OutboundQueue');
  }

  /**
   * Whether another worker still holds the text after a short wait (a send takes well under a
   * second; waiting here keeps the ordinary race with the fast path out of the retry log).
   */
  private async heldElsewhere(messageId: string): Promise<boolean> {
    for (let waited = 0; ; waited += HELD_POLL_MS) {
      if ((await this.outbound.status(messageId)) !== 'sending') return false;
      if (waited >= HELD_WAIT_MS) return true;
      await new Promise((resolve) => setTimeout(resolve, HELD_POLL_MS));
    }
  }

  /**
   * Sends one queued text; throws RetryLater when the provider may take it later. The queue's
   * consumer also comes back (RetryLater) for a text someone else is sending: if that sender dies
   * or fails half-way (the text left `sending`), the text is claimed again once stale, instead of
   * being stranded after its one event was acknowledged.
   */
  async deliver(messageId: string, { fastPath = false } = {}): Promise<'sent' | 'skipped' | 'suppressed' | 'refused' | 'held' | 'failed'> {
    const message = await this.outbound.claim(messageId, STALE_SEND_MS);
    if (!message) {
      if (!fastPath && (await this.heldElsewhere(messageId))) throw new RetryLater('Being sent by another worker');
      return 'skipped';
    }
    // STOP is honoured to the letter: after it only its own confirmation (and the one to START) goes out.
    if (message.purpose !== 'confirmation') {
      const number = await this.numbers.number(message.to);
      if (number?.optedOut) {
        await this.outbound.record(message.id, { status: 'suppressed', error: 'The number opted out (STOP)' });
        return 'suppressed';
      }
    }
    const refusal = destinationRefusal(message.to, this.destinations);
    if (refusal) {
      await this.outbound.record(message.id, { status: 'refused', error: `Never texted: ${refusal}` });
      return 'refused';
    }
    const ceiling = await this.ceiling.reserve();
    if (ceiling === 'wait') {
      await this.outbound.record(message.id, { status: 'retrying', error: 'SMS_TEXTS_PER_MINUTE reached' });
      throw new RetryLater('SMS_TEXTS_PER_MINUTE reached');
    }
    if (ceiling === 'hold') {
      await this.outbound.record(message.id, { status: 'held', error: 'SMS_TEXTS_PER_DAY reached' });
      return 'held';
    }
    try {
      const result = await this.sender.send({
        to: message.to,
        from: message.from ?? undefined,
        body: message.body,
        purpose: message.purpose as OutgoingSms['purpose'],
        mediaUrls: message.mediaUrls,
        statusCallback: this.statusCallback,
      });
      await this.outbound.record(message.id, { status: result.status, providerMessageId: result.providerMessageId });
      return 'sent';
    } catch (error) {
      const reason = error instanceof SmsSendError ? error.providerError : String(error);
      if (error instanceof SmsSendError && error.retryable && message.attempts < MAX_SEND_ATTEMPTS) {
        await this.outbound.record(message.id, { status: 'retrying', error: reason });
        throw new RetryLater(reason);
      }
      await this.outbound.record(message.id, { status: 'failed', error: reason });
      this.logger.warn({ msg: 'A text could not be sent', message_id: message.id, reason }, 'OutboundQueue');
      return 'failed';
    }
  }
}
