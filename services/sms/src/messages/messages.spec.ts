import { DomainError } from '@app/platform';
import { SmsSendError, type OutgoingSms, type SmsSendResult, type SmsSender } from '../sms/senders/sms-sender';
import type { MessagesRepository, NewOutboundMessage, OutboundMessageOutcome } from './messages.repository';
import { MessagesService } from './messages.service';
import type { OutboundMessageEntity } from './outbound-message.entity';

class FakeRepository implements Pick<MessagesRepository, 'insert' | 'recordOutcome' | 'newest'> {
  rows: OutboundMessageEntity[] = [];
  private clock = Date.parse('2025-01-01T00:00:00Z');

  async insert(message: NewOutboundMessage): Promise<OutboundMessageEntity> {
    const row = { ...message, providerMessageId: null, error: null, createdAt: new Date((this.clock += 1000)) };
    this.rows.push(row);
    return { ...row };
  }
  async recordOutcome(id: string, outcome: OutboundMessageOutcome): Promise<void> {
    Object.assign(this.rows.find((r) => r.id === id)!, outcome);
  }
  async newest(provider: string, limit: number): Promise<OutboundMessageEntity[]> {
    return this.rows.filter((r) => r.provider === provider).reverse().slice(0, limit);
  }
}

class ScriptedSender implements SmsSender {
  next: SmsSendResult | Error = { status: 'queued', providerMessageId: 'SM1' };
  constructor(readonly provider: 'console' | 'twilio') {}
  async send(_sms: OutgoingSms): Promise<SmsSendResult> {
    if (this.next instanceof Error) throw this.next;
    return this.next;
  }
}

const sms: OutgoingSms = { to: '+14155550123', body: 'hi', purpose: 'notice' };

function setup(provider: 'console' | 'twilio') {
  const repository = new FakeRepository();
  const sender = new ScriptedSender(provider);
  return { repository, sender, service: new MessagesService(sender, repository as unknown as MessagesRepository) };
}

describe('MessagesService', () => {
  it('stores the message with the provider answer', async () => {
    const { repository, service } = setup('twilio');
    const sent = await service.send(sms);
    expect(sent).toMatchObject({ to: sms.to, body: 'hi', provider: 'twilio', status: 'queued', created_at: '2025-01-01T00:00:01.000Z' });
    expect(repository.rows).toEqual([expect.objectContaining({ id: sent.message_id, status: 'queued', providerMessageId: 'SM1', error: null })]);
  });

  it('keeps a refused message as failed with the provider reason, and passes the refusal on', async () => {
    const { repository, sender, service } = setup('twilio');
    const refusal = new SmsSendError('bad_request', 'Not a valid number.', 400, 'Twilio 21211 (HTTP 400): invalid');
    sender.next = refusal;
    await expect(service.send(sms)).rejects.toBe(refusal);
    expect(repository.rows[0]).toMatchObject({ status: 'failed', error: 'Twilio 21211 (HTTP 400): invalid' });
  });

  it('keeps nothing internal from an unexpected failure', async () => {
    const { repository, sender, service } = setup('twilio');
    sender.next = new Error('socket details');
    await expect(service.send(sms)).rejects.toThrow('socket details');
    expect(repository.rows[0]).toMatchObject({ status: 'failed', error: 'Unexpected error while sending' });
    expect(new DomainError('bad_request', 'x')).not.toBeInstanceOf(SmsSendError);
  });

  it('opens the development inbox only for the console sink, newest first', async () => {
    const consoleSetup = setup('console');
    consoleSetup.sender.next = { status: 'delivered', providerMessageId: null };
    await consoleSetup.service.send({ ...sms, body: 'one' });
    await consoleSetup.service.send({ ...sms, body: 'two' });
    const inbox = await consoleSetup.service.devInbox(50);
    expect(inbox.enabled).toBe(true);
    expect(inbox.messages.map((m) => m.body)).toEqual(['two', 'one']);

    const twilioSetup = setup('twilio');
    await twilioSetup.service.send(sms);
    expect(await twilioSetup.service.devInbox(50)).toEqual({ enabled: false, messages: [] });
  });
});
