import type { AppLogger } from '@app/platform';
import { SmsSendError, type OutgoingSms, type SmsSender } from '../sms/senders/sms-sender';
import { OutboundQueue, RetryLater } from './outbound-queue';
import type { NumbersRepository } from './store/numbers.repository';
import { SendCeiling } from './send-ceiling';
import type { CeilingVerdict, OutboundRepository, OutboundRow } from './store/outbound.repository';

/** The queue's rows, as a typed fake of the repository. */
class FakeOutbound implements Pick<OutboundRepository, 'claim' | 'status' | 'record' | 'requeue' | 'reserveSend'> {
  rows = new Map<string, OutboundRow>();
  requeued: string[] = [];
  /** Ids whose `sending` is stale (its sender died long enough ago). */
  stale = new Set<string>();
  /** What the ceiling says of the next sends (then 'send'). */
  ceilings: CeilingVerdict[] = [];
  async requeue(id: string): Promise<void> {
    this.requeued.push(id);
  }
  async status(id: string): Promise<string | null> {
    return this.rows.get(id)?.status ?? null;
  }
  async claim(id: string): Promise<OutboundRow | null> {
    const row = this.rows.get(id);
    if (!row || !(['pending', 'retrying'].includes(row.status) || (row.status === 'sending' && this.stale.has(id)))) return null;
    row.status = 'sending';
    row.attempts += 1;
    return { ...row };
  }
  async record(id: string, outcome: { status: string }) {
    this.rows.get(id)!.status = outcome.status;
  }
  async reserveSend(): Promise<CeilingVerdict> {
    return this.ceilings.shift() ?? 'send';
  }
}

class FakeNumbers implements Pick<NumbersRepository, 'number'> {
  optedOut = new Set<string>();
  async number(phone: string) {
    return { userId: null, optedOut: this.optedOut.has(phone) };
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
  const errors: unknown[] = [];
  const logger = { warn: () => undefined, error: (e: unknown) => errors.push(e) } as unknown as AppLogger;
  const setup = () => {
    const outbound = new FakeOutbound();
    const numbers = new FakeNumbers();
    const sender = new FakeSender();
    const queue = new OutboundQueue(
      outbound as unknown as OutboundRepository,
      numbers as unknown as NumbersRepository,
      sender,
      { PUBLIC_URL: 'https://a.example' },
      { ownNumbers: ['+15005550006', '+15005550007'], blockedCountries: ['CN'] },
      new SendCeiling(outbound, { SMS_TEXTS_PER_MINUTE: 10, SMS_TEXTS_PER_DAY: 100 }, logger),
      logger,
    );
    const add = (id: string, purpose = 'reply', to = '+14155550100') =>
      outbound.rows.set(id, {
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
    return { outbound, numbers, sender, queue, add };
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
    const { outbound, sender, queue, add } = setup();
    add('m1');
    sender.failures.push(new SmsSendError('unavailable', 'down', 502, 'Twilio 20500 (HTTP 500)', true));
    await expect(queue.deliver('m1')).rejects.toBeInstanceOf(RetryLater);
    expect(outbound.rows.get('m1')!.status).toBe('retrying');
    expect(await queue.deliver('m1')).toBe('sent');
    add('m2');
    sender.failures.push(new SmsSendError('bad_request', 'bad number', 400, 'Twilio 21211 (HTTP 400)', false));
    expect(await queue.deliver('m2')).toBe('failed');
    expect(sender.sent).toHaveLength(1);
  });

  it('comes back for a text another worker left half-sent, and sends it once that send is stale', async () => {
    const { outbound, sender, queue, add } = setup();
    add('m1');
    outbound.rows.get('m1')!.status = 'sending'; // claimed by the fast path, whose database write then failed
    await expect(queue.deliver('m1')).rejects.toBeInstanceOf(RetryLater);
    expect(sender.sent).toHaveLength(0);
    outbound.stale.add('m1');
    expect(await queue.deliver('m1')).toBe('sent');
    expect(sender.sent).toHaveLength(1);
    // The fast path itself never waits for another worker.
    add('m2');
    outbound.rows.get('m2')!.status = 'sending';
    await queue.sendNow(['m2']);
    expect(outbound.requeued).toEqual([]);
  });

  it('sends nothing to an opted-out number but the confirmation of its STOP', async () => {
    const { numbers, sender, queue, add } = setup();
    numbers.optedOut.add('+14155550100');
    add('reply');
    add('confirmation', 'confirmation');
    expect(await queue.deliver('reply')).toBe('suppressed');
    expect(await queue.deliver('confirmation')).toBe('sent');
    expect(sender.sent.map((s) => s.purpose)).toEqual(['confirmation']);
  });

  it.each([
    ['the service’s own number', '+15005550007'],
    ['a blocked region', '+8613800138000'],
    ['a satellite phone', '+8816123456'],
    ['an international network', '+882123456789'],
    ['a landline', '+442071234567'],
    ['a premium-rate number', '+19005551234'],
  ])('never texts %s', async (_what, to) => {
    const { outbound, sender, queue, add } = setup();
    add('m', 'confirmation', to);
    expect(await queue.deliver('m')).toBe('refused');
    expect(outbound.rows.get('m')!.status).toBe('refused');
    expect(sender.sent).toEqual([]);
  });

  it("past the minute's ceiling a text waits for its retry; past the day's it is held, not sent, and logged", async () => {
    const { outbound, sender, queue, add } = setup();
    add('m1');
    add('m2');
    outbound.ceilings.push('wait', 'hold');
    await expect(queue.deliver('m1')).rejects.toBeInstanceOf(RetryLater);
    expect(outbound.rows.get('m1')!.status).toBe('retrying');
    errors.length = 0;
    expect(await queue.deliver('m2')).toBe('held');
    expect(outbound.rows.get('m2')!.status).toBe('held');
    expect(errors).toEqual([expect.objectContaining({ msg: expect.stringContaining('SMS_TEXTS_PER_DAY') })]);
    expect(sender.sent).toEqual([]);
    // The waiting one goes out once the ceiling allows.
    expect(await queue.deliver('m1')).toBe('sent');
  });

  it('sends what a committed transaction queued at once, in order, and puts a Twilio 5xx back in the queue', async () => {
    const { outbound, sender, queue, add } = setup();
    add('a', 'reply', '+14155550100');
    add('b', 'notice', '+14155550100');
    add('c', 'reply', '+14155550101');
    sender.failures.push(new SmsSendError('unavailable', 'down', 502, 'Twilio 20500 (HTTP 500)', true));
    await queue.sendNow(['a', 'b']);
    await queue.sendNow(['c']);
    // The first send met a 500: back to the queue's events (its consumer retries with back-off); the rest went out in order.
    expect(outbound.requeued).toEqual(['a']);
    expect(outbound.rows.get('a')!.status).toBe('retrying');
    expect(sender.sent.map((s) => s.to)).toEqual(['+14155550100', '+14155550101']);
    expect(sender.sent[0].purpose).toBe('notice');
  });
});
