import { AppLogger, DomainError, type RpcClient } from '@app/platform';
import type { Caller } from '@app/contracts';
import type { GroupsRepository } from '../channel/store/groups.repository';
import type { NumbersRepository } from '../channel/store/numbers.repository';
import type { SmsConfig } from '../config';
import type { SendCeiling } from '../channel/send-ceiling';
import type { CeilingVerdict } from '../channel/store/outbound.repository';
import { maskCodes } from '../sms/mask-codes';
import { ConsoleSender } from '../sms/senders/console.sender';
import { SmsSendError, type OutgoingSms, type SmsSendResult, type SmsSender } from '../sms/senders/sms-sender';
import type { MessagesRepository, NewOutboundMessage, OutboundMessageOutcome } from './messages.repository';
import { MessagesService } from './messages.service';
import type { OutboundMessageEntity } from './outbound-message.entity';
import { SmsUserData } from './sms-user-data';

type Repo = Pick<MessagesRepository, 'insert' | 'recordOutcome' | 'newestTo' | 'linkToUser' | 'deleteTo' | 'deleteOlderThan'>;

class FakeRepository implements Repo {
  rows: OutboundMessageEntity[] = [];
  /** Numbers that texted STOP. */
  stopped = new Set<string>();
  /** The number's row as NumbersRepository reads it (only its opt-out matters here). */
  async number(phoneNumber: string) {
    return this.stopped.has(phoneNumber) ? { userId: null, optedOut: true } : null;
  }
  clock = Date.parse('2025-01-01T00:00:00Z');

  async insert(message: NewOutboundMessage): Promise<OutboundMessageEntity> {
    const row = { ...message, providerMessageId: null, error: null, createdAt: new Date((this.clock += 1000)) };
    this.rows.push(row);
    return { ...row };
  }
  async recordOutcome(id: string, outcome: OutboundMessageOutcome): Promise<void> {
    Object.assign(
      this.rows.find((r) => r.id === id)!,
      outcome,
    );
  }
  async newestTo(provider: string, toNumber: string, limit: number): Promise<OutboundMessageEntity[]> {
    return this.rows
      .filter((r) => r.provider === provider && r.toNumber === toNumber)
      .reverse()
      .slice(0, limit);
  }
  async linkToUser(toNumber: string, userId: string): Promise<void> {
    for (const row of this.rows) if (row.toNumber === toNumber && row.userId === null) row.userId = userId;
  }
  async deleteTo(toNumber: string): Promise<void> {
    this.rows = this.rows.filter((r) => r.toNumber !== toNumber);
  }
  async deleteOlderThan(purpose: string, before: Date): Promise<number> {
    const kept = this.rows.filter((r) => r.purpose !== purpose || r.createdAt >= before);
    const deleted = this.rows.length - kept.length;
    this.rows = kept;
    return deleted;
  }
}

class ScriptedSender implements SmsSender {
  next: SmsSendResult | Error = { status: 'queued', providerMessageId: 'SM1' };
  sent: OutgoingSms[] = [];
  constructor(readonly provider: 'console' | 'twilio') {}
  async send(sms: OutgoingSms): Promise<SmsSendResult> {
    this.sent.push(sms);
    if (this.next instanceof Error) throw this.next;
    return this.next;
  }
}

type Config = Pick<SmsConfig, 'DEV_SMS_INBOX' | 'NODE_ENV' | 'SMS_CODE_TEXT_RETENTION_HOURS' | 'TWILIO_FROM_NUMBER' | 'SMS_DEV_NUMBER'>;
const DEV: Config = {
  DEV_SMS_INBOX: true,
  NODE_ENV: 'development',
  SMS_CODE_TEXT_RETENTION_HOURS: 24,
  TWILIO_FROM_NUMBER: '+15005550006',
  SMS_DEV_NUMBER: '+15550100000',
};

const capture = () => {
  const lines: string[] = [];
  return { lines, logger: new AppLogger({ service: 'sms', level: 'info', format: 'json', sink: (l) => lines.push(l) }) };
};

const sms: OutgoingSms = { to: '+14155550123', body: 'hi', purpose: 'notice' };
const code = (to = '+14155550123', digits = '246810'): OutgoingSms => ({
  to,
  body: `${digits} is your Assistant sign-in code.`,
  purpose: 'login_code',
});

/** The operator's ceiling, answering what a test scripts (then 'send'). */
class ScriptedCeiling implements Pick<SendCeiling, 'reserve'> {
  verdicts: CeilingVerdict[] = [];
  async reserve(): Promise<CeilingVerdict> {
    return this.verdicts.shift() ?? 'send';
  }
}

function setup(provider: 'console' | 'twilio', config: Partial<Config> = {}) {
  const ceiling = new ScriptedCeiling();
  const repository = new FakeRepository();
  const sender = new ScriptedSender(provider);
  const service = new MessagesService(
    sender,
    repository as unknown as MessagesRepository,
    repository,
    { ...DEV, ...config },
    capture().logger,
    ceiling,
  );
  return { repository, sender, service, ceiling };
}

describe('MessagesService', () => {
  it("refuses a text past the operator's ceiling with 503 and Retry-After, and sends nothing", async () => {
    const { service, sender, repository, ceiling } = setup('twilio');
    ceiling.verdicts.push('wait', 'hold');
    for (let i = 0; i < 2; i++) await expect(service.send(sms)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 60 });
    expect(sender.sent).toEqual([]);
    expect(repository.rows).toEqual([]);
    expect((await service.send(sms)).status).toBe('queued');
  });

  it('stores the message with the provider answer', async () => {
    const { repository, service } = setup('twilio');
    const sent = await service.send(sms);
    expect(sent).toMatchObject({ to: sms.to, body: 'hi', provider: 'twilio', status: 'queued', created_at: '2025-01-01T00:00:01.000Z' });
    expect(repository.rows).toEqual([
      expect.objectContaining({ id: sent.message_id, status: 'queued', providerMessageId: 'SM1', error: null, userId: null }),
    ]);
  });

  it('texts no sign-in code to a number that opted out (STOP): a 409 saying how to opt back in, nothing stored or sent (issue 21.4)', async () => {
    const { repository, sender, service } = setup('twilio');
    repository.stopped.add('+14155550123');
    await expect(service.send(code())).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/opted out of texts.*text START to \+15005550006/),
    });
    expect(sender.sent).toEqual([]);
    expect(repository.rows).toEqual([]);
    expect(await service.optOut('+14155550123')).toEqual({ opted_out: true, service_number: '+15005550006' });
    expect(await service.optOut('+14155550124')).toEqual({ opted_out: false, service_number: '+15005550006' });
    // Without Twilio, START goes to the development number.
    expect((await setup('console').service.optOut('+14155550123')).service_number).toBe('+15550100000');
  });

  it('keeps the account a text is for when the sender says it', async () => {
    const { repository, service } = setup('twilio');
    await service.send({ ...sms, userId: '5b0c2c2e-8a1f-4c55-9a0e-0c4f9d1c7d11' });
    expect(repository.rows[0].userId).toBe('5b0c2c2e-8a1f-4c55-9a0e-0c4f9d1c7d11');
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

  it('in production stores a sign-in code text with the code masked, but sends it whole', async () => {
    const { repository, sender, service } = setup('twilio', { NODE_ENV: 'production', DEV_SMS_INBOX: false });
    const sent = await service.send(code());
    expect(sender.sent[0].body).toBe('246810 is your Assistant sign-in code.');
    expect(repository.rows[0].body).toBe('24•••• is your Assistant sign-in code.');
    expect(sent.body).not.toContain('246810');
    // Outside production the development inbox needs the code as it is.
    const dev = setup('console');
    await dev.service.send(code());
    expect(dev.repository.rows[0].body).toBe('246810 is your Assistant sign-in code.');
  });

  describe('the development inbox', () => {
    it("shows the texts to the number asked for, newest first, and never another number's", async () => {
      const { service, sender } = setup('console');
      sender.next = { status: 'delivered', providerMessageId: null };
      await service.send({ ...sms, body: 'one' });
      await service.send(code('+447700900123', '111111'));
      await service.send({ ...sms, body: 'two' });
      const inbox = await service.devInbox('+14155550123', 50);
      expect(inbox.enabled).toBe(true);
      expect(inbox.messages.map((m) => m.body)).toEqual(['two', 'one']);
      expect((await service.devInbox('+447700900123', 50)).messages.map((m) => m.body)).toEqual(['111111 is your Assistant sign-in code.']);
      expect(await service.devInbox('+12025550100', 50)).toEqual({ enabled: true, messages: [] });
    });

    it('without a number says only whether it is on', async () => {
      const { service } = setup('console');
      await service.send(code());
      expect(await service.devInbox(undefined, 50)).toEqual({ enabled: true, messages: [] });
    });

    it('is off without DEV_SMS_INBOX, in production, and with Twilio', async () => {
      for (const { provider, config } of [
        { provider: 'console' as const, config: { DEV_SMS_INBOX: false } },
        { provider: 'console' as const, config: { NODE_ENV: 'production' as const } },
        { provider: 'twilio' as const, config: {} },
      ]) {
        const { service } = setup(provider, config);
        await service.send(code());
        expect(await service.devInbox('+14155550123', 50)).toEqual({ enabled: false, messages: [] });
      }
    });
  });

  it('deletes sign-in code texts older than the retention, and keeps the rest', async () => {
    const { repository, service } = setup('console', { SMS_CODE_TEXT_RETENTION_HOURS: 24 });
    await service.send(code());
    await service.send(sms);
    repository.clock += 3600_000;
    await service.send(code('+14155550123', '999999'));
    const first = repository.rows[0].createdAt.getTime();
    // A day after the first code, plus a little: only the first code is that old.
    expect(await service.deleteExpiredCodeTexts(new Date(first + 24 * 3600_000 + 1))).toBe(1);
    expect(repository.rows.map((r) => r.body)).toEqual(['hi', '999999 is your Assistant sign-in code.']);
    expect(await service.deleteExpiredCodeTexts(new Date(first + 48 * 3600_000))).toBe(1);
    expect(repository.rows.map((r) => r.body)).toEqual(['hi']);
  });
});

describe('maskCodes', () => {
  it('keeps two digits of every code-like number', () => {
    expect(maskCodes('123456 is your Assistant sign-in code. It expires in 10 minutes.')).toBe(
      '12•••• is your Assistant sign-in code. It expires in 10 minutes.',
    );
    expect(maskCodes('codes 0042 and 98765432')).toBe('codes 00•• and 98••••••');
    expect(maskCodes('no code here')).toBe('no code here');
  });
});

describe('ConsoleSender', () => {
  it('writes the code in full on a development machine, masked in production', async () => {
    const dev = capture();
    await new ConsoleSender(dev.logger, { NODE_ENV: 'development' }).send(code());
    expect(dev.lines.join('\n')).toContain('246810');

    const prod = capture();
    await new ConsoleSender(prod.logger, { NODE_ENV: 'production' }).send(code());
    expect(prod.lines.join('\n')).not.toContain('246810');
    expect(JSON.parse(prod.lines[0])).toMatchObject({
      msg: 'SMS to +14155550123 : 24•••• is your Assistant sign-in code.',
      purpose: 'login_code',
    });
  });
});

describe('SmsUserData', () => {
  const userId = '5b0c2c2e-8a1f-4c55-9a0e-0c4f9d1c7d11';
  const caller: Caller = { user_id: userId, is_anon: false, session_id: 's-1', request_id: 'r-1' };
  const rpcAnswering = (phone: string | null, id = userId) => {
    const calls: { subject: string; caller: Caller }[] = [];
    const rpc = {
      call: async (contract: { subject: string }, _data: unknown, who: Caller) => {
        calls.push({ subject: contract.subject, caller: who });
        return { user_id: id, phone_number: phone };
      },
    } as unknown as RpcClient;
    return { rpc, calls };
  };

  async function withTexts() {
    const repository = new FakeRepository();
    await repository.insert({
      id: 'a',
      toNumber: '+14155550123',
      userId: null,
      body: 'code 1',
      purpose: 'login_code',
      provider: 'console',
      status: 'delivered',
    });
    await repository.insert({
      id: 'b',
      toNumber: '+447700900123',
      userId: null,
      body: 'code 2',
      purpose: 'login_code',
      provider: 'console',
      status: 'delivered',
    });
    await repository.insert({
      id: 'c',
      toNumber: '+14155550123',
      userId: 'a3d1e0b2-0000-4000-8000-000000000001',
      body: 'other',
      purpose: 'notice',
      provider: 'console',
      status: 'delivered',
    });
    return repository;
  }

  /** The hook with no groups and no number known to the channel (what these cases are about is the texts by number). */
  const hookOf = (repository: unknown, rpc: RpcClient) =>
    new SmsUserData(
      repository as MessagesRepository,
      { ofMember: async () => [], forgetNumbers: async () => undefined } as unknown as GroupsRepository,
      { numberOfUser: async () => null } as unknown as NumbersRepository,
      rpc,
      { warn: () => undefined } as unknown as AppLogger,
    );

  it("before an export, links the texts sent to the caller's number (asked of auth as the caller)", async () => {
    const repository = await withTexts();
    const { rpc, calls } = rpcAnswering('+14155550123');
    await hookOf(repository, rpc).beforeExport!(userId, caller);
    expect(calls).toEqual([{ subject: 'auth.user.me', caller }]);
    expect(repository.rows.map((r) => [r.id, r.userId])).toEqual([
      ['a', userId],
      ['b', null],
      // A text already given to someone is not taken from them.
      ['c', 'a3d1e0b2-0000-4000-8000-000000000001'],
    ]);
  });

  it('links nothing for a guest, nor for a caller who is not the user exported', async () => {
    const repository = await withTexts();
    const guest = rpcAnswering(null);
    await hookOf(repository, guest.rpc).beforeExport!(userId, caller);
    const stranger = rpcAnswering('+14155550123');
    await hookOf(repository, stranger.rpc).beforeExport!(userId, {
      ...caller,
      user_id: 'a3d1e0b2-0000-4000-8000-000000000002',
    });
    expect(stranger.calls).toEqual([]);
    expect(repository.rows.filter((r) => r.userId === userId)).toEqual([]);
  });

  it('on deletion removes every text to the number the event names', async () => {
    const repository = await withTexts();
    const hook = hookOf(repository, rpcAnswering(null).rpc);
    await hook.purgeUserData(userId, { user_id: userId, deletion_id: 'd-1', phone_number: '+14155550123' });
    expect(repository.rows.map((r) => r.id)).toEqual(['b']);
    await hook.purgeUserData(userId, { user_id: userId, deletion_id: 'd-1' });
    expect(repository.rows.map((r) => r.id)).toEqual(['b']);
  });
});
