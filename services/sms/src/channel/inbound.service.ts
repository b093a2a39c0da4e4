import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { E164Schema, SMS_EVENTS, type TwilioWebhook } from '@app/contracts/sms';
import { systemCaller } from '@app/contracts';
import { AppLogger, DomainError, RpcCallError, RpcClient, SERVICE_CONFIG } from '@app/platform';
import { smsProviderOf, type SmsConfig } from '../config';
import { AssistantClient, texterCaller } from './assistant.client';
import { ChannelRepository, type ChannelTransaction, type InboundRow, type QueuedText } from './channel.repository';
import { GroupsService } from './groups.service';
import { keywordOf } from './keywords';
import { formatForPhone } from './phone-format';
import { queuedText } from './queued-text';
import { fitToSegments } from './segments';
import { WebhookSigning } from './signing';
import { CHANNEL_TEXT } from './texts';

/** How long one replica holds an incoming text it answers before another may take it over. */
const LEASE_MS = 5 * 60_000;
/** Texts older than this still unanswered were left by a crash: the sweep answers them. */
const STRANDED_AFTER_MS = 60_000;

/** The calendar month (UTC) usage counts in: `2026-11`. */
export const periodOf = (now: Date): string => now.toISOString().slice(0, 7);

const field = (params: TwilioWebhook['params'], name: string): string | undefined => {
  const value = params[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Incoming texts: checked (Twilio's signature), stored once per MessageSid, then answered in the
 * background (Twilio wants its webhook answered at once): the number's account (auth), the
 * keywords, the opt-out, the month's allowance, then the assistant's reply (chat) in the thread's
 * conversation, written for a phone and put in the outbound queue with any notice it triggers, in
 * one transaction. Texts of one number are answered in order; a sweep answers those a crash left.
 */
@Injectable()
export class InboundService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly chains = new Map<string, Promise<void>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private sweeper?: NodeJS.Timeout;
  private closed = false;
  private readonly name: string;

  constructor(
    private readonly channel: ChannelRepository,
    private readonly signing: WebhookSigning,
    private readonly assistant: AssistantClient,
    private readonly groups: GroupsService,
    private readonly rpc: RpcClient,
    @Inject(SERVICE_CONFIG) private readonly config: SmsConfig,
    private readonly logger: AppLogger,
  ) {
    this.name = config.ASSISTANT_NAME;
  }

  /** The assistant's own number: Twilio's, or the development number. */
  get assistantNumber(): string {
    return smsProviderOf(this.config) === 'twilio' && this.config.TWILIO_FROM_NUMBER
      ? this.config.TWILIO_FROM_NUMBER
      : this.config.SMS_DEV_NUMBER;
  }

  get provider(): string {
    return smsProviderOf(this.config);
  }

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
    await this.signing.check(webhook.url, webhook.signature, webhook.params);
    const sid = field(webhook.params, 'MessageSid') ?? field(webhook.params, 'SmsSid');
    const from = E164Schema.safeParse(field(webhook.params, 'From'));
    const to = E164Schema.safeParse(field(webhook.params, 'To'));
    if (!sid || !/^[A-Za-z0-9]{10,64}$/.test(sid)) throw DomainError.badRequest('MessageSid is missing.');
    if (!from.success || !to.success) throw DomainError.badRequest('From and To must be phone numbers in E.164 form.');
    const media: InboundRow['media'] = [];
    const count = Math.min(10, Number(field(webhook.params, 'NumMedia') ?? 0) || 0);
    for (let i = 0; i < count; i++) {
      const url = field(webhook.params, `MediaUrl${i}`);
      if (url) media.push({ url, contentType: field(webhook.params, `MediaContentType${i}`) ?? 'application/octet-stream' });
    }
    const id = randomUUID();
    const stored = await this.channel.insertInbound({
      id,
      messageSid: sid,
      from: from.data,
      to: to.data,
      body: (field(webhook.params, 'Body') ?? '').slice(0, 1600),
      media,
    });
    if (stored) this.kick(id, from.data);
    return { message_sid: sid, duplicate: !stored };
  }

  /** A delivery status callback: stored, and the message's status follows it. */
  async status(webhook: TwilioWebhook): Promise<{ recorded: boolean }> {
    await this.signing.check(webhook.url, webhook.signature, webhook.params);
    const sid = field(webhook.params, 'MessageSid') ?? field(webhook.params, 'SmsSid');
    const status = field(webhook.params, 'MessageStatus') ?? field(webhook.params, 'SmsStatus');
    if (!sid || !status) throw DomainError.badRequest('MessageSid and MessageStatus are required.');
    const recorded = await this.channel.recordStatusCallback(
      sid.slice(0, 64),
      status.slice(0, 32),
      field(webhook.params, 'ErrorCode')?.slice(0, 16) ?? null,
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
    const stranded = await this.channel.strandedInbound(STRANDED_AFTER_MS, 100);
    for (const id of stranded) void this.kick(id, `sweep:${id}`);
    return stranded.length;
  }

  /** Answers one stored text (at most once: it is claimed first). */
  async process(id: string): Promise<void> {
    const text = await this.channel.claimInbound(id, LEASE_MS);
    if (!text) return;
    try {
      const outcome = await this.answer(text);
      await this.channel.finishInbound(text.id, outcome.status, { userId: outcome.userId, groupId: outcome.groupId });
    } catch (error) {
      this.logger.error(error instanceof Error ? error : String(error), 'InboundService');
      await this.channel.finishInbound(text.id, 'failed', { error: error instanceof Error ? error.message.slice(0, 500) : String(error) });
    }
  }

  private async answer(text: InboundRow): Promise<{ status: string; userId?: string | null; groupId?: string | null }> {
    let account: { user_id: string; name: string | null };
    try {
      account = await this.rpc.call(AUTH_RPC.accountForPhone, { phone_number: text.from }, systemCaller(`sms:${text.messageSid}`));
    } catch (error) {
      // A blocked region (451), an invalid number (400), an account being deleted (409): no service, no reply.
      if (error instanceof RpcCallError && error.shape.status < 500) return { status: `refused_${error.shape.status}` };
      throw error;
    }
    const userId = account.user_id;
    await this.channel.linkNumber(text.from, userId);
    const keyword = keywordOf(text.body);

    if (keyword?.keyword === 'stop') {
      const changed = await this.channel.setOptedOut(text.from, userId, true);
      if (changed) await this.queueOne(this.text(text, userId, CHANNEL_TEXT.stopped(this.name), 'confirmation'));
      return { status: 'opted_out', userId };
    }
    const number = await this.channel.number(text.from);
    if (keyword?.keyword === 'start' && (number?.optedOut || keyword.word !== 'YES')) {
      const changed = await this.channel.setOptedOut(text.from, userId, false);
      if (changed || keyword.word !== 'YES') await this.queueOne(this.text(text, userId, CHANNEL_TEXT.started(this.name), 'confirmation'));
      return { status: 'opted_in', userId };
    }
    if (number?.optedOut) return { status: 'ignored_opted_out', userId };
    if (keyword?.word === 'YES' && (await this.groups.confirmJoin(text.from, userId, account.name, text))) {
      return { status: 'joined_group', userId };
    }
    if (this.groups.isGroupNumber(text.to)) {
      const groupId = await this.groups.relay(text, userId, account.name);
      return { status: groupId ? 'relayed' : 'not_a_member', userId, groupId };
    }
    if (keyword?.keyword === 'help') {
      await this.queueOne(this.text(text, userId, CHANNEL_TEXT.help(this.name, this.config.SMS_MONTHLY_ALLOWANCE), 'notice'));
      return { status: 'helped', userId };
    }
    return this.reply(text, userId);
  }

  /** The assistant's reply in the thread's conversation, the month counted, notices owed: one transaction. */
  private async reply(text: InboundRow, userId: string): Promise<{ status: string; userId: string }> {
    const period = periodOf(new Date());
    const allowance = this.config.SMS_MONTHLY_ALLOWANCE;
    if ((await this.channel.usage(userId, period)) >= allowance) return { status: 'over_allowance', userId };

    const caller = texterCaller(userId, `sms:${text.messageSid}`);
    const chatId = await this.threadConversation(caller, userId, text);
    const files = [];
    for (const [index, media] of text.media.entries()) {
      if (!media.contentType.startsWith('image/')) continue;
      const data = await this.groups.downloadMedia(media.url);
      const stored = data ? await this.assistant.storeMedia(caller, data, media.contentType, index) : null;
      if (stored) files.push(stored);
    }
    const content = text.body.trim() || (files.length ? 'What is in this picture?' : '');
    if (!content) return { status: 'empty', userId };
    const answer = await this.assistant.reply(caller, chatId, content, files);
    const mediaUrls: string[] = [];
    for (const image of answer.images) {
      const url = await this.assistant.mediaUrl(caller, image);
      if (url) mediaUrls.push(url);
    }
    const body = answer.error && !answer.text ? CHANNEL_TEXT.failed(this.name) : this.forPhone(answer.text || '…');
    const reply = { ...this.text(text, userId, body, 'reply'), mediaUrls };
    await this.channel.transaction(async (tx) => {
      await tx.queue(reply);
      if (answer.error && !answer.text) return;
      const used = await tx.countUsage(userId, period);
      await this.notices(tx, text, userId, period, used);
      await this.usageEvent(tx, userId, period, used);
    });
    return { status: 'answered', userId };
  }

  /** The usage notice (once a month at the share), the limit notice (once at the limit), the credit notice (once below it). */
  private async notices(tx: ChannelTransaction, text: InboundRow, userId: string, period: string, used: number): Promise<void> {
    const allowance = this.config.SMS_MONTHLY_ALLOWANCE;
    const key = `${userId}:${period}`;
    if (used >= allowance) {
      await tx.notice({ kind: 'limit', eventKey: key, text: this.text(text, userId, CHANNEL_TEXT.limit(this.name, allowance), 'notice') });
      return;
    }
    if (used >= Math.ceil(allowance * this.config.SMS_USAGE_NOTICE_SHARE)) {
      await tx.notice({
        kind: 'usage',
        eventKey: key,
        text: this.text(text, userId, CHANNEL_TEXT.usage(this.name, used, allowance), 'notice'),
      });
    }
    const left = allowance - used;
    if (this.config.SMS_CREDIT_NOTICE_BELOW > 0 && left < this.config.SMS_CREDIT_NOTICE_BELOW) {
      await tx.notice({ kind: 'credit', eventKey: key, text: this.text(text, userId, CHANNEL_TEXT.credit(this.name, left), 'notice') });
    }
  }

  private async usageEvent(tx: ChannelTransaction, userId: string, period: string, used: number): Promise<void> {
    await tx.event(
      SMS_EVENTS.usage,
      { user_id: userId, period, texts_used: used, monthly_allowance: this.config.SMS_MONTHLY_ALLOWANCE },
      `sms-usage:${userId}:${period}:${used}`,
    );
  }

  /** The conversation of this texting thread (the number and the assistant's number), made on the first text. */
  private async threadConversation(caller: ReturnType<typeof texterCaller>, userId: string, text: InboundRow): Promise<string> {
    const existing = await this.channel.thread(userId, text.to);
    if (existing) return existing;
    const chatId = await this.assistant.newConversation(caller, 'Text messages');
    return this.channel.saveThread({ id: randomUUID(), userId, phone: text.from, serviceNumber: text.to, chatId });
  }

  /** Markdown stripped, links plain, cut to SMS_MAX_SEGMENTS segments. */
  forPhone(markdown: string): string {
    return fitToSegments(formatForPhone(markdown) || '…', this.config.SMS_MAX_SEGMENTS);
  }

  /** A text back to the number that wrote, from the number it wrote to. */
  private text(to: InboundRow, userId: string | null, body: string, purpose: QueuedText['purpose']): QueuedText {
    return queuedText({ to: to.from, from: to.to, body, purpose, provider: this.provider, userId, inboundId: to.id });
  }

  private queueOne(text: QueuedText): Promise<void> {
    return this.channel.transaction((tx) => tx.queue(text));
  }
}
