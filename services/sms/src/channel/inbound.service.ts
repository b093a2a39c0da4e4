import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { toSafeText } from '@app/contracts';
import { E164Schema, type TwilioWebhook } from '@app/contracts/sms';
import { AppLogger, DomainError, SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../config';
import { inboundContext } from './inbound/inbound-context';
import { InboundPipeline } from './inbound/inbound-pipeline';
import { WebhookSigning } from './signing';
import { InboundRepository, type InboundRow } from './store/inbound.repository';
import { OutboundRepository } from './store/outbound.repository';

/** How long one replica holds an incoming text it answers before another may take it over. */
const LEASE_MS = 5 * 60_000;
/** Texts older than this still unanswered were left by a crash: the sweep answers them. */
const STRANDED_AFTER_MS = 60_000;
/** The longest text kept (Twilio joins a long text's parts: 10 segments at most). */
const MAX_BODY = 1600;

/** The form fields as the signature covers them: values the gateway had to carry in base64 (NUL bytes...) decoded again. */
export function paramsOf(webhook: TwilioWebhook): TwilioWebhook['params'] {
  if (!webhook.encoded?.length) return webhook.params;
  const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');
  const params: TwilioWebhook['params'] = { ...webhook.params };
  for (const name of webhook.encoded) {
    const value = params[name];
    if (value !== undefined) params[name] = Array.isArray(value) ? value.map(decode) : decode(value);
  }
  return params;
}

const field = (params: TwilioWebhook['params'], name: string): string | undefined => {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * A text as it is kept and answered: control characters a phone can send (NUL, escapes, DEL)
 * removed, line ends as `\n`, tabs as spaces, what cannot be stored replaced (toSafeText), at most
 * 1,600 characters. Nothing a texter sends makes the text be refused.
 */
export function cleanBody(body: string): string {
  return (
    toSafeText(body)
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, ' ')
      // eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, '')
      .slice(0, MAX_BODY)
  );
}

/**
 * Incoming texts: checked (Twilio's signature), stored once per MessageSid, then answered in the
 * background (Twilio wants its webhook answered at once) by the inbound pipeline. Texts of one
 * number are answered in order, at most SMS_INBOUND_CONCURRENCY at once; each is claimed first (a
 * lease), so a second replica or a redelivery answers it at most once, and a sweep answers those a
 * crash left.
 */
@Injectable()
export class InboundService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly chains = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private sweeper?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly inbound: InboundRepository,
    private readonly outbound: OutboundRepository,
    private readonly signing: WebhookSigning,
    private readonly pipeline: InboundPipeline,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<SmsConfig, 'SMS_INBOUND_CONCURRENCY'>,
    private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    const sweep = () =>
      void this.sweep().catch((error: unknown) =>
        this.logger.warn({ msg: 'Inbound sweep failed', error: String(error) }, 'InboundService'),
      );
    this.sweeper = setInterval(sweep, 30_000);
    this.sweeper.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    // Texts being answered finish (their lease lets another replica take them otherwise).
    await Promise.allSettled([...this.chains.values()]);
  }

  /** The Messaging webhook: 403 for a bad signature (nothing stored), else stored once and answered later. */
  async receive(webhook: TwilioWebhook): Promise<{ message_sid: string; duplicate: boolean }> {
    const params = paramsOf(webhook);
    await this.signing.check(webhook.url, webhook.signature, params);
    const sid = field(params, 'MessageSid') ?? field(params, 'SmsSid');
    const from = E164Schema.safeParse(field(params, 'From'));
    const to = E164Schema.safeParse(field(params, 'To'));
    if (!sid || !/^[A-Za-z0-9]{10,64}$/.test(sid)) throw DomainError.badRequest('MessageSid is missing.');
    if (!from.success || !to.success) throw DomainError.badRequest('From and To must be phone numbers in E.164 form.');
    const media: InboundRow['media'] = [];
    const count = Math.min(10, Number(field(params, 'NumMedia') ?? 0) || 0);
    for (let i = 0; i < count; i++) {
      const url = field(params, `MediaUrl${i}`);
      if (url) media.push({ url, contentType: field(params, `MediaContentType${i}`) ?? 'application/octet-stream' });
    }
    const id = randomUUID();
    const stored = await this.inbound.insert({
      id,
      messageSid: sid,
      from: from.data,
      to: to.data,
      body: cleanBody(field(params, 'Body') ?? ''),
      media,
    });
    if (stored) void this.kick(id, from.data);
    return { message_sid: sid, duplicate: !stored };
  }

  /** A delivery status callback: stored, and the message's status follows it. */
  async status(webhook: TwilioWebhook): Promise<{ recorded: boolean }> {
    const params = paramsOf(webhook);
    await this.signing.check(webhook.url, webhook.signature, params);
    const sid = field(params, 'MessageSid') ?? field(params, 'SmsSid');
    const status = field(params, 'MessageStatus') ?? field(params, 'SmsStatus');
    if (!sid || !status) throw DomainError.badRequest('MessageSid and MessageStatus are required.');
    const recorded = await this.outbound.recordStatusCallback(
      cleanBody(sid).slice(0, 64),
      cleanBody(status).slice(0, 32),
      field(params, 'ErrorCode') === undefined ? null : cleanBody(field(params, 'ErrorCode')!).slice(0, 16),
    );
    return { recorded };
  }

  /** Answers a text in the background, after the texts of the same number before it, within the concurrency limit. */
  kick(id: string, from: string): Promise<void> {
    const previous = this.chains.get(from) ?? Promise.resolve();
    const next = previous
      .then(() => this.slot(() => this.process(id)))
      .catch((error: unknown) => this.logger.error(error instanceof Error ? error : String(error), 'InboundService'))
      .finally(() => {
        if (this.chains.get(from) === next) this.chains.delete(from);
      });
    this.chains.set(from, next);
    return next;
  }

  /** Waits until every text kicked so far is answered (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.chains.size) await Promise.allSettled([...this.chains.values()]);
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.SMS_INBOUND_CONCURRENCY) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  async sweep(): Promise<number> {
    if (this.closed) return 0;
    const stranded = await this.inbound.stranded(STRANDED_AFTER_MS, 100);
    for (const id of stranded) void this.kick(id, `sweep:${id}`);
    return stranded.length;
  }

  /** Answers one stored text (at most once: it is claimed first). */
  async process(id: string): Promise<void> {
    const text = await this.inbound.claim(id, LEASE_MS);
    if (!text) return;
    const ctx = inboundContext(text);
    try {
      await this.pipeline.run(ctx);
      await this.inbound.finish(text.id, ctx.status, { userId: ctx.account?.userId, groupId: ctx.groupId });
    } catch (error) {
      this.logger.error(error instanceof Error ? error : String(error), 'InboundService');
      await this.inbound.finish(text.id, 'failed', {
        userId: ctx.account?.userId,
        error: error instanceof Error ? error.message.slice(0, 500) : String(error),
      });
    }
  }
}
