import type { AppLogger } from '@app/platform';
import { SmsSendError, type OutgoingSms, type SmsSender } from '../sms/senders/sms-sender';
import type { ChannelRepository, OutboundRow } from './channel.repository';
import { highlightsOf, maskNumber } from './groups.service';
import { keywordOf } from './keywords';
import { OutboundQueue, RetryLater } from './outbound-queue';
import { formatForPhone } from './phone-format';
import { countSegments, fitToSegments } from './segments';

describe('SMS segments', () => {
  it('counts GSM-7: 160 in one segment, 153 per segment beyond', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161 });
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts an extension character as two septets and never splits its escape', () => {
    expect(countSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(countSegments('€'.repeat(81)).segments).toBe(2);
    // 152 plain then one escape pair: 154 septets do not fit in 153, the pair moves whole to segment 2.
    expect(countSegments(`${'a'.repeat(152)}[${'a'.repeat(10)}`)).toEqual({ encoding: 'GSM-7', segments: 2, units: 164 });
  });

  it('counts UCS-2: 70 in one segment, 67 beyond, a surrogate pair as two units never split', () => {
    expect(countSegments('é'.repeat(70)).encoding).toBe('GSM-7');
    expect(countSegments('ж'.repeat(70))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(countSegments('ж'.repeat(71)).segments).toBe(2);
    expect(countSegments('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70 });
    expect(countSegments('😀'.repeat(36)).segments).toBe(2);
    // 66 units then a pair: 68 > 67, so the pair starts segment 2.
    expect(countSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(3)}`).segments).toBe(2);
    expect(countSegments('ж'.repeat(134)).segments).toBe(2);
    expect(countSegments('ж'.repeat(135)).segments).toBe(3);
  });

  it('cuts a long text to the segment limit with an ellipsis that keeps its encoding', () => {
    const gsm = fitToSegments('word '.repeat(200), 2);
    expect(countSegments(gsm)).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    expect(gsm.endsWith('word...')).toBe(true);
    const ucs = fitToSegments('слово '.repeat(100), 2);
    expect(countSegments(ucs)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(ucs.endsWith('слово...')).toBe(true);
    expect(fitToSegments('short', 1)).toBe('short');
  });
});

describe('phone formatting and keywords', () => {
  it('strips markdown and keeps links plain', () => {
    expect(formatForPhone('# Title\n\n**Bold** and _it_ and `code`\n\n* one\n* two\n\nSee [the docs](https://x.example/a_b).')).toBe(
      'Title\n\nBold and it and code\n\n- one\n- two\n\nSee the docs (https://x.example/a_b).',
    );
    expect(formatForPhone('[https://x.example](https://x.example) ![img](https://i.example/p.png)')).toBe('https://x.example');
    expect(formatForPhone('```ts\nconst a = 1;\n```')).toBe('const a = 1;');
  });

  it('recognises keywords in any case with spaces and punctuation, and only as the whole text', () => {
    expect(keywordOf(' Stop! ')).toEqual({ keyword: 'stop', word: 'STOP' });
    expect(keywordOf('opt-out')).toEqual({ keyword: 'stop', word: 'OPTOUT' });
    for (const word of ['stopall', 'UNSUBSCRIBE', 'cancel', 'end', 'quit', 'revoke']) expect(keywordOf(word)?.keyword).toBe('stop');
    expect(keywordOf('unstop.')?.keyword).toBe('start');
    expect(keywordOf('yes')?.keyword).toBe('start');
    expect(keywordOf('Info?')?.keyword).toBe('help');
    expect(keywordOf('stop talking')).toBeNull();
  });

  it('masks numbers and finds highlight offsets', () => {
    expect(maskNumber('+14155550123')).toBe('+1••••••0123');
    expect(highlightsOf('Packing for Porto: porto wine', 'porto')).toEqual([
      { start: 12, end: 17 },
      { start: 19, end: 24 },
    ]);
  });
});

/** The outbound queue with a typed fake repository and sender. */
class FakeChannel implements Pick<
  ChannelRepository,
  'claimOutbound' | 'outboundStatus' | 'number' | 'recordOutbound' | 'onCommitted' | 'requeue'
> {
  rows = new Map<string, OutboundRow>();
  optedOut = new Set<string>();
  requeued: string[] = [];
  committed?: (ids: string[]) => Promise<void>;
  onCommitted(listener: (ids: string[]) => Promise<void>): void {
    this.committed = listener;
  }
  async requeue(id: string): Promise<void> {
    this.requeued.push(id);
  }
  /** Ids whose `sending` is stale (its sender died long enough ago). */
  stale = new Set<string>();
  async outboundStatus(id: string): Promise<string | null> {
    return this.rows.get(id)?.status ?? null;
  }
  async claimOutbound(id: string): Promise<OutboundRow | null> {
    const row = this.rows.get(id);
    if (!row || !(['pending', 'retrying'].includes(row.status) || (row.status === 'sending' && this.stale.has(id)))) return null;
    row.status = 'sending';
    row.attempts += 1;
    return { ...row };
  }
  async number(phone: string) {
    return { userId: null, optedOut: this.optedOut.has(phone) };
  }
  async recordOutbound(id: string, outcome: { status: string }) {
    this.rows.get(id)!.status = outcome.status;
  }
}

class FakeSender implements SmsSender {
  readonly provider = 'twilio' as const;
  sent: OutgoingSms[] = [];
  failures: SmsSendError[] = [];
  async send(sms: OutgoingSms) {
    const failure = this.failures.shift();
    if (failure) throw failure;
    this.sent.push(sms);
    return { status: 'queued', providerMessageId: `SM${this.sent.length}` };
  }
}

describe('OutboundQueue', () => {
  const logger = { warn: () => undefined } as unknown as AppLogger;
  const setup = () => {
    const channel = new FakeChannel();
    const sender = new FakeSender();
    const queue = new OutboundQueue(channel as unknown as ChannelRepository, sender, { PUBLIC_URL: 'https://a.example' }, logger);
    const add = (id: string, purpose = 'reply', to = '+14155550100') =>
      channel.rows.set(id, {
        id,
        to,
        from: '+15005550006',
        body: 'hi',
        purpose,
        provider: 'twilio',
        status: 'pending',
        attempts: 0,
        mediaUrls: [],
        userId: null,
      });
    return { channel, sender, queue, add };
  };

  it('sends once: a redelivered event finds the text already sent', async () => {
    const { sender, queue, add } = setup();
    add('m1');
    expect(await queue.deliver('m1')).toBe('sent');
    expect(await queue.deliver('m1')).toBe('skipped');
    expect(sender.sent).toHaveLength(1);
    expect(sender.sent[0].statusCallback).toBe('https://a.example/api/v1/sms/twilio/status');
  });

  it('retries a 5xx or 429, gives up on other refusals', async () => {
    const { channel, sender, queue, add } = setup();
    add('m1');
    sender.failures.push(new SmsSendError('unavailable', 'down', 502, 'Twilio 20500 (HTTP 500)', true));
    await expect(queue.deliver('m1')).rejects.toBeInstanceOf(RetryLater);
    expect(channel.rows.get('m1')!.status).toBe('retrying');
    expect(await queue.deliver('m1')).toBe('sent');
    add('m2');
    sender.failures.push(new SmsSendError('bad_request', 'bad number', 400, 'Twilio 21211 (HTTP 400)', false));
    expect(await queue.deliver('m2')).toBe('failed');
    expect(sender.sent).toHaveLength(1);
  });

  it('comes back for a text another worker left half-sent, and sends it once that send is stale', async () => {
    const { channel, sender, queue, add } = setup();
    add('m1');
    channel.rows.get('m1')!.status = 'sending'; // claimed by the fast path, whose database write then failed
    await expect(queue.deliver('m1')).rejects.toBeInstanceOf(RetryLater);
    expect(sender.sent).toHaveLength(0);
    channel.stale.add('m1');
    expect(await queue.deliver('m1')).toBe('sent');
    expect(sender.sent).toHaveLength(1);
    // The fast path itself never waits for another worker.
    add('m2');
    channel.rows.get('m2')!.status = 'sending';
    await channel.committed!(['m2']);
    expect(channel.requeued).toEqual([]);
  });

  it('sends nothing to an opted-out number but the confirmation of its STOP', async () => {
    const { channel, sender, queue, add } = setup();
    channel.optedOut.add('+14155550100');
    add('reply');
    add('confirmation', 'confirmation');
    expect(await queue.deliver('reply')).toBe('suppressed');
    expect(await queue.deliver('confirmation')).toBe('sent');
    expect(sender.sent.map((s) => s.purpose)).toEqual(['confirmation']);
  });

  it('sends what a committed transaction queued at once, in order, and puts a Twilio 5xx back in the queue', async () => {
    const { channel, sender, add } = setup();
    add('a', 'reply', '+14155550100');
    add('b', 'notice', '+14155550100');
    add('c', 'reply', '+14155550101');
    sender.failures.push(new SmsSendError('unavailable', 'down', 502, 'Twilio 20500 (HTTP 500)', true));
    await channel.committed!(['a', 'b']);
    await channel.committed!(['c']);
    // The first send met a 500: back to the queue's events (its consumer retries with back-off); the rest went out in order.
    expect(channel.requeued).toEqual(['a']);
    expect(channel.rows.get('a')!.status).toBe('retrying');
    expect(sender.sent.map((s) => s.to)).toEqual(['+14155550100', '+14155550101']);
    expect(sender.sent[0].purpose).toBe('notice');
  });
});
