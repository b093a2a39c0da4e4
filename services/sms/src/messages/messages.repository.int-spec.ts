import { randomUUID } from 'node:crypto';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { smsMigrations } from '../migrations';
import { MessagesRepository, type NewOutboundMessage } from './messages.repository';
import { OutboundMessageEntity } from './outbound-message.entity';

/**
 * The texts' record against the real PostgreSQL: a number's texts are given to its account only
 * when they belong to nobody, a number's erasure takes everything about it, and the retention
 * counts what it removed.
 */
describe('MessagesRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let messages: MessagesRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'smsmessages', schema: 'sms', entities: [OutboundMessageEntity], migrations: smsMigrations });
    messages = new MessagesRepository(db.source);
  });

  afterAll(() => db?.drop());

  const number = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  const textTo = (toNumber: string, fields: Partial<NewOutboundMessage> = {}) =>
    messages.insert({
      id: randomUUID(),
      toNumber,
      userId: null,
      body: 'Your code is 123456',
      purpose: 'login_code',
      provider: 'console',
      status: 'queued',
      ...fields,
    });

  const inboundFrom = (fromNumber: string, userId: string | null = null) =>
    db.source.query(
      `INSERT INTO inbound_message (id, message_sid, from_number, to_number, user_id, body, status) VALUES ($1, $2, $3, '+15005550006', $4, 'hi', 'done')`,
      [randomUUID(), `SM${randomUUID().replace(/-/g, '')}`, fromNumber, userId],
    );

  const ownersOf = async (table: 'outbound_message' | 'inbound_message', column: 'to_number' | 'from_number', phone: string) =>
    (
      (await db.source.query(`SELECT user_id FROM ${table} WHERE ${column} = $1 ORDER BY created_at`, [phone])) as {
        user_id: string | null;
      }[]
    ).map((r) => r.user_id);

  it("gives a number's unowned texts, both ways, to its account, and leaves another account's alone", async () => {
    const phone = number();
    const earlier = randomUUID();
    const account = randomUUID();
    await textTo(phone);
    await textTo(phone, { userId: earlier });
    await inboundFrom(phone);
    await inboundFrom(phone, earlier);

    await messages.linkToUser(phone, account);
    expect(await ownersOf('outbound_message', 'to_number', phone)).toEqual([account, earlier]);
    expect(await ownersOf('inbound_message', 'from_number', phone)).toEqual([account, earlier]);
  });

  it('erases everything about a number (texts both ways, its opt-out) and nothing about another', async () => {
    const phone = number();
    const other = number();
    await textTo(phone);
    await textTo(other);
    await inboundFrom(phone);
    await db.source.query('INSERT INTO sms_number (phone_number, opted_out) VALUES ($1, true), ($2, true)', [phone, other]);

    await messages.deleteTo(phone);
    expect(await ownersOf('outbound_message', 'to_number', phone)).toEqual([]);
    expect(await ownersOf('inbound_message', 'from_number', phone)).toEqual([]);
    expect(await db.source.query('SELECT 1 FROM sms_number WHERE phone_number = $1', [phone])).toEqual([]);
    expect(await ownersOf('outbound_message', 'to_number', other)).toHaveLength(1);
    expect(await db.source.query('SELECT 1 FROM sms_number WHERE phone_number = $1', [other])).toHaveLength(1);
  });

  it('records an outcome, lists a number’s newest texts first, and counts what the retention removed', async () => {
    const phone = number();
    const first = await textTo(phone, { purpose: 'notice' });
    const second = await textTo(phone, { purpose: 'notice' });
    await messages.recordOutcome(first.id, { status: 'sent', providerMessageId: 'SM1', error: null });

    const newest = await messages.newestTo('console', phone, 10);
    expect(newest.map((m) => m.id)).toEqual([second.id, first.id]);
    expect(newest[1]).toMatchObject({ status: 'sent', providerMessageId: 'SM1' });
    expect(await messages.newestTo('twilio', phone, 10)).toEqual([]);

    await db.source.query("UPDATE outbound_message SET created_at = now() - interval '40 days' WHERE id = $1", [first.id]);
    expect(await messages.deleteOlderThan('notice', new Date(Date.now() - 30 * 86_400_000))).toBe(1);
    expect((await messages.newestTo('console', phone, 10)).map((m) => m.id)).toEqual([second.id]);
  });
});
