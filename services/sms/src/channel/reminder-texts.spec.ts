import type { Caller } from '@app/contracts';
import { AUTH_RPC } from '@app/contracts/auth';
import { FakeTransaction } from './channel.fakes';
import { Allowance } from './inbound/allowance';
import { ReminderTexts, reminderTextId } from './reminder-texts';

const USER = '22222222-2222-4222-8222-222222222222';
const PHONE = '+14155550111';
const REMINDER = '33333333-3333-4333-8333-333333333333';
const caller: Caller = { user_id: USER, is_anon: false, session_id: null, request_id: 'reminder:x' } as Caller;

/** ReminderTexts over typed fakes: the channel's transaction, its numbers and queue, the allowance's real rules. */
function setup(options: { known?: { phone: string; optedOut: boolean } | null; authPhone?: string | null; allowance?: number } = {}) {
  const tx = new FakeTransaction();
  const statuses = new Map<string, string>();
  const sentNow: string[][] = [];
  const allowance = new Allowance(
    {
      SMS_MONTHLY_ALLOWANCE: options.allowance ?? 10,
      SMS_USAGE_NOTICE_SHARE: 0.8,
      SMS_CREDIT_NOTICE_BELOW: 0,
      ASSISTANT_NAME: 'Assistant',
    },
    { usage: async () => [...tx.usage.values()].reduce((a, b) => a + b, 0) },
  );
  const authCalls: string[] = [];
  const texts = new ReminderTexts(
    {
      transaction: async (work) => {
        const before = tx.queued.length;
        const result = await work(tx);
        for (const t of tx.queued.slice(before)) statuses.set(t.id, 'pending');
        return { result, queued: tx.queued.slice(before).map((t) => t.id) };
      },
    },
    {
      numberOfUser: async () => (options.known === undefined ? { phone: PHONE, optedOut: false } : options.known),
      number: async (phone) => (phone === options.known?.phone ? { userId: USER, optedOut: options.known.optedOut } : null),
    },
    { status: async (id) => statuses.get(id) ?? null },
    { sendNow: async (ids) => void sentNow.push(ids) },
    allowance,
    { assistant: '+15550100000', provider: 'console' },
    {
      call: (async (contract: { subject: string }) => {
        authCalls.push(contract.subject);
        return { phone_number: options.authPhone ?? null };
      }) as never,
    },
  );
  return { tx, texts, sentNow, authCalls };
}

describe('reminder texts', () => {
  it("queues one notice to the account's number from the assistant's, counts it, and sends it at once", async () => {
    const { tx, texts, sentNow } = setup();
    expect(await texts.deliver(caller, REMINDER, 'Reminder: call Mum')).toBe('queued');
    expect(tx.queued).toEqual([
      expect.objectContaining({
        id: reminderTextId(REMINDER),
        to: PHONE,
        from: '+15550100000',
        body: 'Reminder: call Mum',
        purpose: 'notice',
        userId: USER,
      }),
    ]);
    expect([...tx.usage.values()]).toEqual([1]);
    expect(tx.locked).toEqual([PHONE]);
    expect(sentNow).toEqual([[reminderTextId(REMINDER)]]);
  });

  it('texts nothing more when asked again for the same reminder (a retry after a lost answer, another replica)', async () => {
    const { tx, texts } = setup();
    await texts.deliver(caller, REMINDER, 'Reminder: call Mum');
    expect(await texts.deliver(caller, REMINDER, 'Reminder: call Mum')).toBe('duplicate');
    expect(tx.queued).toHaveLength(1);
    expect([...tx.usage.values()]).toEqual([1]);
  });

  it('uses the number the account signs in with when it never texted, and says when there is none', async () => {
    const signedIn = setup({ known: null, authPhone: PHONE });
    expect(await signedIn.texts.deliver(caller, REMINDER, 'Reminder: x')).toBe('queued');
    expect(signedIn.authCalls).toEqual([AUTH_RPC.me.subject]);
    const none = setup({ known: null, authPhone: null });
    expect(await none.texts.deliver(caller, REMINDER, 'Reminder: x')).toBe('no_number');
    expect(none.tx.queued).toEqual([]);
  });

  it('never texts a number that said STOP, nor past the month allowance', async () => {
    const stopped = setup({ known: { phone: PHONE, optedOut: true } });
    expect(await stopped.texts.deliver(caller, REMINDER, 'Reminder: x')).toBe('opted_out');
    expect(stopped.tx.queued).toEqual([]);
    const spent = setup({ allowance: 1 });
    spent.tx.usage.set(`${USER}:2026-11`, 1);
    expect(await spent.texts.deliver(caller, REMINDER, 'Reminder: x')).toBe('over_allowance');
    expect(spent.tx.queued).toEqual([]);
  });

  it('gives each reminder its own uuid-shaped text id, the same every time', () => {
    expect(reminderTextId(REMINDER)).toBe(reminderTextId(REMINDER));
    expect(reminderTextId(REMINDER)).not.toBe(reminderTextId('44444444-4444-4444-8444-444444444444'));
    expect(reminderTextId(REMINDER)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
