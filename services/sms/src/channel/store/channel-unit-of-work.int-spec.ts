import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrate, Outbox, PLATFORM_MIGRATIONS, type Bus } from '@app/platform';
import { createTestDatabase, type TestDatabase } from '@app/testing';
import type { DataSource } from 'typeorm';
import { OutboundMessageEntity } from '../../messages/outbound-message.entity';
import { smsMigrations } from '../../migrations';
import { queuedText } from '../queued-text';
import { ChannelUnitOfWork } from './channel-unit-of-work';
import { GroupsRepository } from './groups.repository';
import { InboundRepository } from './inbound.repository';
import { NumbersRepository } from './numbers.repository';
import { OutboundRepository } from './outbound.repository';

const log = { warn: () => undefined, error: () => undefined };
const POOL = ['+15005550007', '+15005550008'];

function dataSourceOf(database: TestDatabase, migrations = [...PLATFORM_MIGRATIONS, ...smsMigrations]): DataSource {
  return createServiceDataSource({
    url: database.url,
    schema: 'sms',
    entities: [OutboundMessageEntity],
    migrations,
    poolMax: 6,
    applicationName: 'sms-channel-int',
  });
}

/**
 * The text channel's SQL against the real PostgreSQL, on a database of its own with the sms
 * service's migrations (as Immich's "medium" tests run a service on a real database): the
 * uniqueness that keeps a member's groups apart, the budgets' counts and windows, the ceiling, the
 * transaction's all-or-nothing, and the migration that repairs memberships sharing a number.
 */
describe('the text channel on PostgreSQL', () => {
  let database: TestDatabase;
  let source: DataSource;
  let store: ChannelUnitOfWork;
  let groups: GroupsRepository;
  let inbound: InboundRepository;
  let numbers: NumbersRepository;
  let outbound: OutboundRepository;

  beforeAll(async () => {
    database = await createTestDatabase('smsstore');
    source = dataSourceOf(database);
    await source.initialize();
    await migrate(source, 'sms');
    const outbox = new Outbox(source, {} as Bus, log);
    store = new ChannelUnitOfWork(source, outbox);
    groups = new GroupsRepository(source);
    inbound = new InboundRepository(source);
    numbers = new NumbersRepository(source);
    outbound = new OutboundRepository(source, outbox);
  });

  afterAll(async () => {
    await source?.destroy();
    await database?.drop();
  });

  const phone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;

  async function groupOn(serviceNumber: string, ownerPhone: string, name = 'Family') {
    const id = randomUUID();
    const created = await groups.create(
      {
        id,
        channelUrl: `${name.toLowerCase()}-${id.slice(0, 8)}`,
        name,
        phoneNumber: serviceNumber,
        ownerUserId: randomUUID(),
        chatId: randomUUID(),
      },
      { phoneNumber: ownerPhone, userId: randomUUID(), label: 'Olga', serviceNumber },
    );
    return { id, created };
  }

  describe('groups', () => {
    it("keeps a member's groups on numbers of their own: a second group on the same number is refused, and routing is unique", async () => {
      const olga = phone();
      const family = await groupOn(POOL[0], olga, 'Family');
      expect(family.created).toBe(true);
      const clash = await groupOn(POOL[0], olga, 'Work');
      expect(clash.created).toBe(false);
      expect((await source.query('SELECT count(*)::int AS n FROM sms_group WHERE id = $1', [clash.id]))[0].n).toBe(0);
      const work = await groupOn(POOL[1], olga, 'Work');
      expect(work.created).toBe(true);
      expect((await groups.membershipOn(olga, POOL[0]))?.id).toBe(family.id);
      expect((await groups.membershipOn(olga, POOL[1]))?.id).toBe(work.id);
      expect((await groups.numbersInUse(olga)).sort()).toEqual(POOL);
      // Another member may have the same number for another group.
      const mia = phone();
      expect(
        await groups.addMember(source, work.id, { phoneNumber: mia, userId: randomUUID(), label: 'Mia', serviceNumber: POOL[0] }),
      ).toBe(true);
      expect(
        await groups.addMember(source, family.id, { phoneNumber: mia, userId: randomUUID(), label: 'Mia', serviceNumber: POOL[0] }),
      ).toBe(false);
      expect((await groups.membershipOn(mia, POOL[0]))?.id).toBe(work.id);
    });

    it('writes a group text to the members with a number for it who did not text STOP', async () => {
      const [olga, mia, tom] = [phone(), phone(), phone()];
      const group = await groupOn(POOL[0], olga, 'Reach');
      await groups.addMember(source, group.id, { phoneNumber: mia, userId: randomUUID(), label: 'Mia', serviceNumber: POOL[1] });
      await groups.addMember(source, group.id, { phoneNumber: tom, userId: randomUUID(), label: 'Tom', serviceNumber: null });
      expect((await groups.reachableMembers(group.id)).map((m) => m.label)).toEqual(['Olga', 'Mia']);
      await store.transaction((tx) => tx.setOptedOut(mia, null, true));
      expect((await groups.reachableMembers(group.id)).map((m) => m.label)).toEqual(['Olga']);
    });

    it('counts invitations of the last day per number, invite link and group, and lists the live ones waiting', async () => {
      const owner = phone();
      const group = await groupOn(POOL[0], owner, 'Club');
      const invite = 'i'.repeat(20) + randomUUID().slice(0, 6);
      await groups.addInvite({ id: invite, groupId: group.id, createdBy: randomUUID(), expiresAt: new Date(Date.now() + 3600_000) });
      const stranger = phone();
      for (const to of [stranger, stranger, phone()])
        await groups.recordJoinAsk(source, { id: randomUUID(), phoneNumber: to, inviteId: invite, groupId: group.id });
      expect(await groups.joinAsksToday(source, { phoneNumber: stranger, inviteId: invite, groupId: group.id })).toEqual({
        number: 2,
        invite: 3,
        group: 3,
      });
      await source.query("UPDATE sms_join_ask SET created_at = now() - interval '25 hours' WHERE phone_number = $1", [stranger]);
      expect(await groups.joinAsksToday(source, { phoneNumber: stranger, inviteId: invite, groupId: group.id })).toEqual({
        number: 0,
        invite: 1,
        group: 1,
      });

      await groups.pendJoin(source, stranger, {
        groupId: group.id,
        inviteId: invite,
        serviceNumber: POOL[1],
        code: '4821',
        inviterLabel: 'Olga',
      });
      expect(await groups.pendingJoins(stranger)).toEqual([
        { groupId: group.id, groupName: 'Club', inviteId: invite, serviceNumber: POOL[1], code: '4821', inviterLabel: 'Olga' },
      ]);
      await groups.revokeInvite(group.id, invite);
      expect(await groups.pendingJoins(stranger)).toEqual([]);
    });
  });

  describe('one answer, one transaction', () => {
    it('writes the texts, their queue events and the usage together, or nothing at all', async () => {
      const to = phone();
      const userId = randomUUID();
      const text = queuedText({ to, from: POOL[0], body: 'Hello', purpose: 'reply', provider: 'twilio', userId });
      await expect(
        store.transaction(async (tx) => {
          await tx.queue(text);
          await tx.countUsage(userId, '2026-11', 3);
          throw new Error('the model failed after all');
        }),
      ).rejects.toThrow('the model failed');
      expect(await outbound.status(text.id)).toBeNull();
      expect(await numbers.usage(userId, '2026-11')).toBe(0);
      const { queued } = await store.transaction(async (tx) => {
        await tx.queue(text);
        expect(await tx.countUsage(userId, '2026-11', 3)).toBe(3);
        expect(await tx.countUsage(userId, '2026-11', 2)).toBe(5);
      });
      expect(queued).toEqual([text.id]);
      expect(await outbound.status(text.id)).toBe('pending');
      const events = await source.query('SELECT event_id FROM outbox WHERE event_id = $1', [`sms-outbound:${text.id}`]);
      expect(events).toHaveLength(1);
    });

    it('answers a keyword once per window, and says whether an opt-out changed', async () => {
      const number = phone();
      const claim = () => store.transaction((tx) => tx.claimKeywordReply(number, 'help', null, 24));
      expect((await claim()).result).toBe(true);
      expect((await claim()).result).toBe(false);
      await source.query("UPDATE sms_keyword_reply SET sent_at = now() - interval '25 hours' WHERE phone_number = $1", [number]);
      expect((await claim()).result).toBe(true);
      const optOut = (value: boolean) => store.transaction((tx) => tx.setOptedOut(number, null, value));
      expect((await optOut(true)).result).toBe(true);
      expect((await optOut(true)).result).toBe(false);
      expect((await optOut(false)).result).toBe(true);
    });

    it('records a notice once per event', async () => {
      const userId = randomUUID();
      const notice = () =>
        store.transaction((tx) =>
          tx.notice({
            kind: 'limit',
            eventKey: `${userId}:2026-11`,
            text: queuedText({ to: phone(), from: POOL[0], body: 'limit', purpose: 'notice', provider: 'twilio', userId }),
          }),
        );
      expect((await notice()).result).toBe(true);
      expect((await notice()).result).toBe(false);
    });
  });

  describe('the outbound queue', () => {
    it("counts sends against the minute's and the day's ceilings, and does not count those it refuses", async () => {
      await source.query('DELETE FROM sms_send_window');
      const verdicts = [];
      for (let i = 0; i < 4; i++) verdicts.push(await outbound.reserveSend(2, 3));
      expect(verdicts).toEqual(['send', 'send', 'wait', 'wait']);
      const [minute] = await source.query("SELECT sent FROM sms_send_window WHERE bucket LIKE 'minute:%'");
      expect(minute.sent).toBe(2);
      // A new minute: one more fits the day, then the day's ceiling holds.
      await source.query(
        "UPDATE sms_send_window SET bucket = 'minute:earlier', starts_at = now() - interval '1 minute' WHERE bucket LIKE 'minute:%'",
      );
      expect(await outbound.reserveSend(2, 3)).toBe('send');
      expect(await outbound.reserveSend(2, 3)).toBe('hold');
      const [day] = await source.query("SELECT sent FROM sms_send_window WHERE bucket LIKE 'day:%'");
      expect(day.sent).toBe(3);
    });

    it("keeps a delivery report that arrived before the provider's answer was recorded", async () => {
      const userId = randomUUID();
      const text = queuedText({ to: phone(), from: POOL[0], body: 'Hi', purpose: 'reply', provider: 'twilio', userId });
      await store.transaction((tx) => tx.queue(text));
      expect(await outbound.claim(text.id, 30_000)).toMatchObject({ id: text.id, attempts: 1 });
      expect(await outbound.claim(text.id, 30_000)).toBeNull();
      expect(await outbound.recordStatusCallback('SMearly0000000001', 'delivered', null)).toBe(false);
      await outbound.record(text.id, { status: 'queued', providerMessageId: 'SMearly0000000001' });
      expect(await outbound.status(text.id)).toBe('delivered');
      const [callback] = await source.query('SELECT outbound_id, user_id FROM sms_status_callback WHERE message_sid = $1', [
        'SMearly0000000001',
      ]);
      expect(callback).toEqual({ outbound_id: text.id, user_id: userId });
    });
  });

  describe('incoming texts', () => {
    it('stores a MessageSid once and lets one replica claim it', async () => {
      const row = {
        id: randomUUID(),
        messageSid: `SM${randomUUID().replace(/-/g, '')}`,
        from: phone(),
        to: POOL[0],
        body: 'Hi',
        media: [],
      };
      expect(await inbound.insert(row)).toBe(true);
      expect(await inbound.insert({ ...row, id: randomUUID() })).toBe(false);
      const [first, second] = await Promise.all([inbound.claim(row.id, 60_000), inbound.claim(row.id, 60_000)]);
      expect([first, second].filter(Boolean)).toHaveLength(1);
      await inbound.finish(row.id, 'answered');
      expect(await inbound.claim(row.id, 60_000)).toBeNull();
    });
  });
});

/** The migration of issue 21 on data the defect left: a member with two groups on one number keeps the oldest there. */
describe('the migration that gives each membership a number of its own', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('smstrustmigration');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps the oldest of two groups a member had on one number, unroutes the other, and the repair finds it', async () => {
    const before = dataSourceOf(database, [...PLATFORM_MIGRATIONS, ...smsMigrations.slice(0, -1)]);
    await before.initialize();
    await migrate(before, 'sms');
    const [family, work] = [randomUUID(), randomUUID()];
    for (const [id, name, at] of [
      [family, 'Family', '2026-11-01'],
      [work, 'Work', '2026-11-02'],
    ]) {
      await before.query(
        'INSERT INTO sms_group (id, channel_url, name, phone_number, owner_user_id, chat_id) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, `${name.toLowerCase()}-1`, name, POOL[0], randomUUID(), randomUUID()],
      );
      await before.query('INSERT INTO sms_group_member (group_id, phone_number, user_id, label, joined_at) VALUES ($1, $2, $3, $4, $5)', [
        id,
        '+14155550100',
        randomUUID(),
        'Olga',
        at,
      ]);
    }
    await before.destroy();

    const after = dataSourceOf(database);
    await after.initialize();
    try {
      expect(await migrate(after, 'sms')).toEqual(['SmsTrust1766200000000']);
      const rows = await after.query('SELECT group_id, service_number FROM sms_group_member ORDER BY joined_at');
      expect(rows).toEqual([
        { group_id: family, service_number: POOL[0] },
        { group_id: work, service_number: null },
      ]);
      const repo = new GroupsRepository(after);
      expect((await repo.unrouted(10)).map((m) => m.groupId)).toEqual([work]);
      expect(await repo.route(after, work, '+14155550100', POOL[0])).toBe(false);
      expect(await repo.route(after, work, '+14155550100', POOL[1])).toBe(true);
      expect((await repo.membershipOn('+14155550100', POOL[1]))?.id).toBe(work);
    } finally {
      await after.destroy();
    }
  });
});
