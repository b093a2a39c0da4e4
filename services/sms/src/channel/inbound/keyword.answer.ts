import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { SmsConfig } from '../../config';
import type { Keyword } from '../keywords';
import { queuedText } from '../queued-text';
import { ServiceNumbers } from '../service-numbers';
import { CHANNEL_TEXT } from '../texts';
import { accountOf, type InboundContext } from './inbound-context';

export type KeywordConfig = Pick<SmsConfig, 'ASSISTANT_NAME' | 'SMS_MONTHLY_ALLOWANCE' | 'SMS_KEYWORD_REPLY_WINDOW_HOURS'>;

/**
 * STOP, START and HELP (and their CTIA synonyms). STOP opts the number out and is confirmed once
 * (a second STOP changes nothing and gets nothing). START opts it in again, confirmed once; START
 * from a number that never stopped, and HELP, are answered at most once per
 * SMS_KEYWORD_REPLY_WINDOW_HOURS: a number that sends HELP 120 times gets one answer.
 */
@Injectable()
export class KeywordAnswer {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: KeywordConfig,
    @Inject(ServiceNumbers) private readonly numbers: Pick<ServiceNumbers, 'provider'>,
  ) {}

  run(ctx: InboundContext, keyword: Keyword): void {
    const { userId } = accountOf(ctx);
    const { from, to, id } = ctx.text;
    const name = this.config.ASSISTANT_NAME;
    const text = (body: string, purpose: 'confirmation' | 'notice') =>
      queuedText({ to: from, from: to, body, purpose, provider: this.numbers.provider, userId, inboundId: id });
    const window = this.config.SMS_KEYWORD_REPLY_WINDOW_HOURS;

    if (keyword === 'stop') {
      ctx.status = 'opted_out';
      ctx.writes.push(async (tx) => {
        if (await tx.setOptedOut(from, userId, true)) await tx.queue(text(CHANNEL_TEXT.stopped(name), 'confirmation'));
      });
    } else if (keyword === 'start') {
      ctx.status = 'opted_in';
      ctx.writes.push(async (tx) => {
        // A START that subscribes again is always confirmed; either way the window starts now.
        const changed = await tx.setOptedOut(from, userId, false);
        const claimed = await tx.claimKeywordReply(from, 'start', userId, window);
        if (changed || claimed) await tx.queue(text(CHANNEL_TEXT.started(name), 'confirmation'));
      });
    } else {
      ctx.status = 'helped';
      ctx.writes.push(async (tx) => {
        if (await tx.claimKeywordReply(from, 'help', userId, window)) {
          await tx.queue(text(CHANNEL_TEXT.help(name, this.config.SMS_MONTHLY_ALLOWANCE), 'notice'));
        } else ctx.status = 'helped_recently';
      });
    }
  }
}
