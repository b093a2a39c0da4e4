import { FakeTransaction } from '../channel.fakes';
import type { DestinationPolicy } from '../destinations';
import type { OutboundQueue } from '../outbound-queue';
import type { ServiceNumbers } from '../service-numbers';
import type { ChannelUnitOfWork } from '../store/channel-unit-of-work';
import type { GroupsRepository, MemberRow, PendingJoin } from '../store/groups.repository';
import type { NumbersRepository } from '../store/numbers.repository';
import { GroupJoins, type JoinConfig } from './group-joins';
import type { GroupNumberPool } from './number-pool';
import { GroupNumberPool as Pool } from './number-pool';

const POOL = ['+15005550007', '+15005550008'];
const PHONE = '+14155550100';

/** The groups' rows a confirmation reads and writes. */
class FakeGroups implements Pick<GroupsRepository, 'pendingJoins' | 'dropPendingJoin' | 'numbersInUse' | 'addMember'> {
  pending: PendingJoin[] = [];
  members: (MemberRow & { groupId: string })[] = [];
  async pendingJoins(phone: string) {
    return phone === PHONE ? [...this.pending] : [];
  }
  async dropPendingJoin(_db: unknown, _phone: string, groupId: string) {
    this.pending = this.pending.filter((p) => p.groupId !== groupId);
  }
  async numbersInUse(phone: string) {
    return this.members.filter((m) => m.phoneNumber === phone).map((m) => m.serviceNumber!);
  }
  async addMember(_db: unknown, groupId: string, member: MemberRow) {
    if (
      this.members.some((m) => m.phoneNumber === member.phoneNumber && (m.groupId === groupId || m.serviceNumber === member.serviceNumber))
    )
      return false;
    this.members.push({ ...member, groupId });
    return true;
  }
}

const config: JoinConfig = {
  ASSISTANT_NAME: 'Assistant',
  SMS_JOIN_TEXTS_PER_NUMBER: 3,
  SMS_JOIN_TEXTS_PER_INVITE: 10,
  SMS_JOIN_TEXTS_PER_GROUP: 20,
  SMS_KEYWORD_REPLY_WINDOW_HOURS: 24,
};

function joinsWith(groups: FakeGroups) {
  const pool = new Pool({ SMS_GROUP_NUMBERS: POOL, SMS_DEV_GROUP_NUMBERS: [] } as never);
  return new GroupJoins(
    config,
    groups as unknown as GroupsRepository,
    {} as NumbersRepository,
    {} as ChannelUnitOfWork,
    {} as OutboundQueue,
    pool as GroupNumberPool,
    { assistant: '+15005550006', provider: 'twilio' } as ServiceNumbers,
    { ownNumbers: [], blockedCountries: [] } as DestinationPolicy,
  );
}

const pending = (groupId: string, code: string, serviceNumber = POOL[0]): PendingJoin => ({
  groupId,
  groupName: groupId === 'family' ? 'Family' : 'Work call +1 415 555 0199',
  inviteId: `invite-${groupId}`,
  serviceNumber,
  code,
  inviterLabel: 'Olga',
});
const account = { userId: 'u1', name: 'Mia' };
const text = (to = POOL[0]) => ({ id: 'in-1', from: PHONE, to });

describe('GroupJoins.confirm: a YES or a JOIN code', () => {
  it('joins the one invitation waiting, on the number it came from, and says so from that number', async () => {
    const groups = new FakeGroups();
    groups.pending = [pending('family', '4821', POOL[1])];
    const tx = new FakeTransaction();
    expect(await joinsWith(groups).confirm(tx, text(POOL[1]), account, null)).toEqual({ status: 'joined_group', groupId: 'family' });
    expect(groups.members).toEqual([
      expect.objectContaining({ groupId: 'family', phoneNumber: PHONE, serviceNumber: POOL[1], label: 'Mia' }),
    ]);
    expect(tx.queued).toEqual([expect.objectContaining({ to: PHONE, from: POOL[1], body: expect.stringMatching(/you joined "Family"/) })]);
    expect(groups.pending).toEqual([]);
    expect(tx.locked).toEqual([PHONE]);
  });

  it('joins neither of two invitations on a bare YES: the number gets the list with a code each, once a day', async () => {
    const groups = new FakeGroups();
    groups.pending = [pending('family', '4821'), pending('evil', '7730')];
    const tx = new FakeTransaction();
    expect(await joinsWith(groups).confirm(tx, text(), account, null)).toEqual({ status: 'join_ambiguous' });
    expect(groups.members).toEqual([]);
    const [list] = tx.bodiesTo(PHONE);
    expect(list).toMatch(/2 group invitations/);
    expect(list).toMatch(/JOIN 4821 for "Family" \(from Olga\)/);
    expect(list).toMatch(/JOIN 7730 for "Work call"/);
    expect(list).not.toMatch(/555|0199/);
    await joinsWith(groups).confirm(tx, text(), account, null);
    expect(tx.bodiesTo(PHONE)).toHaveLength(1);
  });

  it('joins the invitation a JOIN code names, and nothing for a code that names none', async () => {
    const groups = new FakeGroups();
    groups.pending = [pending('family', '4821'), pending('evil', '7730')];
    const tx = new FakeTransaction();
    expect(await joinsWith(groups).confirm(tx, text(), account, '4821')).toEqual({ status: 'joined_group', groupId: 'family' });
    expect(groups.members.map((m) => m.groupId)).toEqual(['family']);
    expect(await joinsWith(groups).confirm(tx, text(), account, '1111')).toEqual({ status: 'join_code_unknown' });
    expect(groups.members.map((m) => m.groupId)).toEqual(['family']);
  });

  it('puts the new group on another number when the one it was offered on already carries a group of theirs', async () => {
    const groups = new FakeGroups();
    groups.members = [{ groupId: 'work', phoneNumber: PHONE, userId: 'u1', label: 'Mia', serviceNumber: POOL[0] }];
    groups.pending = [pending('family', '4821', POOL[0])];
    const tx = new FakeTransaction();
    expect((await joinsWith(groups).confirm(tx, text(), account, null)).status).toBe('joined_group');
    expect(groups.members.find((m) => m.groupId === 'family')?.serviceNumber).toBe(POOL[1]);
    expect(tx.queued[0].from).toBe(POOL[1]);
  });

  it('refuses the join with a clear text when every number of the pool carries a group of theirs', async () => {
    const groups = new FakeGroups();
    groups.members = POOL.map((n, i) => ({ groupId: `g${i}`, phoneNumber: PHONE, userId: 'u1', label: 'Mia', serviceNumber: n }));
    groups.pending = [pending('family', '4821')];
    const tx = new FakeTransaction();
    expect(await joinsWith(groups).confirm(tx, text(), account, null)).toEqual({ status: 'join_refused_full', groupId: 'family' });
    expect(tx.bodiesTo(PHONE)).toEqual([expect.stringMatching(/could not join "Family": your number is already in 2 groups/)]);
    expect(groups.members.filter((m) => m.groupId === 'family')).toEqual([]);
  });
});
