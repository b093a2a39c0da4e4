import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, SERVICE_CONFIG } from '@app/platform';
import twilio from 'twilio';
import { smsProviderOf, type SmsConfig } from '../config';
import { SettingsRepository } from './store/settings.repository';

/**
 * The key webhooks are signed with: Twilio's auth token when Twilio is configured; otherwise a key
 * made once and kept in the database (the development phone signs its webhooks with it, so they go
 * through the very same check; nothing outside this instance knows it).
 */
@Injectable()
export class WebhookSigning {
  private key?: Promise<string>;

  constructor(
    private readonly settings: SettingsRepository,
    @Inject(SERVICE_CONFIG) private readonly config: SmsConfig,
  ) {}

  private signingKey(): Promise<string> {
    if (smsProviderOf(this.config) === 'twilio' && this.config.TWILIO_AUTH_TOKEN) return Promise.resolve(this.config.TWILIO_AUTH_TOKEN);
    this.key ??= this.settings
      .setting('dev-webhook-key', () => randomBytes(32).toString('hex'))
      .catch((error: unknown) => {
        this.key = undefined;
        throw error;
      });
    return this.key;
  }

  /** Refuses (403, nothing stored) a webhook whose X-Twilio-Signature is not Twilio's for this URL and these fields. */
  async check(url: string, signature: string, params: Record<string, string | string[]>): Promise<void> {
    const valid = signature !== '' && twilio.validateRequest(await this.signingKey(), signature, url, params);
    if (!valid) throw new DomainError('forbidden', 'The request signature is not valid.', 403);
  }

  /** The signature of a development webhook (the caller checks it may sign). */
  async sign(url: string, params: Record<string, string>): Promise<string> {
    return twilio.getExpectedTwilioSignature(await this.signingKey(), url, params);
  }
}
