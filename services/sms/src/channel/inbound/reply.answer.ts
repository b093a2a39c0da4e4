import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { FileReference } from '@app/contracts/chat';
import { SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import { AssistantClient, texterCaller } from '../assistant.client';
import { formatForPhone } from '../phone-format';
import { queuedText } from '../queued-text';
import { fitToSegments } from '../segments';
import { ServiceNumbers } from '../service-numbers';
import { NumbersRepository } from '../store/numbers.repository';
import { CHANNEL_TEXT } from '../texts';
import { Allowance, type NoticeAddress } from './allowance';
import { accountOf, type InboundContext } from './inbound-context';
import { MmsMedia } from './mms-media';

export type ReplyConfig = Pick<SmsConfig, 'ASSISTANT_NAME' | 'SMS_MAX_SEGMENTS'>;

/** The assistant's reply written for a phone: no markdown, at most SMS_MAX_SEGMENTS, ending at a sentence with a pointer to the rest. */
export function forPhone(markdown: string, maxSegments: number): string {
  return fitToSegments(formatForPhone(markdown) || '…', maxSegments, CHANNEL_TEXT.more);
}

/**
 * A one-to-one text to the assistant: answered in the thread's conversation (the number's account,
 * with its memories, exactly as on the web), pictures included (downscaled when large; the texter
 * is told once when one cannot be read). The reply counts one text against the allowance; past the
 * allowance the text is stored and not answered (the limit notice goes once a month).
 */
@Injectable()
export class ReplyAnswer {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ReplyConfig,
    @Inject(AssistantClient) private readonly assistant: Pick<AssistantClient, 'newConversation' | 'reply' | 'mediaUrl' | 'storeMedia'>,
    @Inject(NumbersRepository) private readonly numbers: Pick<NumbersRepository, 'thread' | 'saveThread'>,
    @Inject(MmsMedia) private readonly media: Pick<MmsMedia, 'picture'>,
    @Inject(Allowance) private readonly allowance: Pick<Allowance, 'fits' | 'count' | 'refused'>,
    @Inject(ServiceNumbers) private readonly service: Pick<ServiceNumbers, 'provider'>,
  ) {}

  async run(ctx: InboundContext): Promise<void> {
    const { userId } = accountOf(ctx);
    const text = ctx.text;
    const address: NoticeAddress = { to: text.from, from: text.to, provider: this.service.provider, inboundId: text.id };
    if (!(await this.allowance.fits(userId, 1))) {
      ctx.status = 'over_allowance';
      ctx.writes.push((tx) => this.allowance.refused(tx, userId, address));
      return;
    }
    const caller = texterCaller(userId, `sms:${text.messageSid}`);
    const chatId = await this.thread(ctx, userId);
    const files: FileReference[] = [];
    let unreadable = false;
    for (const [index, media] of text.media.entries()) {
      if (!media.contentType.startsWith('image/')) continue;
      const picture = await this.media.picture(media.url, media.contentType);
      const stored = picture.ok ? await this.assistant.storeMedia(caller, picture.data, picture.contentType, index) : null;
      if (stored) files.push(stored);
      else unreadable = true;
    }
    const reply = (body: string, purpose: 'reply' | 'notice', mediaUrls: string[] = []) =>
      queuedText({ to: text.from, from: text.to, body, purpose, provider: this.service.provider, userId, inboundId: text.id, mediaUrls });
    if (unreadable) ctx.writes.push((tx) => tx.queue(reply(CHANNEL_TEXT.pictureUnreadable(this.config.ASSISTANT_NAME), 'notice')));
    const content = text.body.trim() || (files.length ? 'What is in this picture?' : '');
    if (!content) {
      ctx.status = unreadable ? 'picture_unreadable' : 'empty';
      return;
    }
    const answer = await this.assistant.reply(caller, chatId, content, files);
    const mediaUrls: string[] = [];
    for (const image of answer.images) {
      const url = await this.assistant.mediaUrl(caller, image);
      if (url) mediaUrls.push(url);
    }
    ctx.status = 'answered';
    if (answer.error && !answer.text) {
      // Nothing to count: the apology is on the service.
      ctx.writes.push((tx) => tx.queue(reply(CHANNEL_TEXT.failed(this.config.ASSISTANT_NAME), 'reply')));
      return;
    }
    const body = forPhone(answer.text || '…', this.config.SMS_MAX_SEGMENTS);
    ctx.writes.push(async (tx) => {
      await tx.queue(reply(body, 'reply', mediaUrls));
      await this.allowance.count(tx, userId, 1, address);
    });
  }

  /** The conversation of this texting thread (the number and the assistant's number), made on the first text. */
  private async thread(ctx: InboundContext, userId: string): Promise<string> {
    const existing = await this.numbers.thread(userId, ctx.text.to);
    if (existing) return existing;
    const chatId = await this.assistant.newConversation(texterCaller(userId, `sms:${ctx.text.messageSid}`), 'Text messages');
    return this.numbers.saveThread({ id: randomUUID(), userId, phone: ctx.text.from, serviceNumber: ctx.text.to, chatId });
  }
}
