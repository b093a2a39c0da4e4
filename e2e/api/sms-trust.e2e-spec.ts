import { FakeTwilio, TRANSPORTS } from '@app/testing';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import request from 'supertest';
import { ApiClient, eventually, phoneNumbers } from '../support/api-client';
import { ASSISTANT, INBOUND, smsStack } from '../support/sms-stack';

/** The group pool: three numbers, so a member can be in three groups, and no more. */
const POOL = ['+15005550007', '+15005550008', '+15005550009'];

/**
 * Texts people can trust (issue 21): private group texts reach only their group, a YES cannot be
 * hijacked, every text the product sends is inside a budget, and what a phone sends is answered.
 * The fake Twilio posts signed webhooks and records what the product sends.
 */
describe.each(TRANSPORTS)('trusted texts over the %s transport', (transport) => {
  const texting = smsStack('smstrust', transport, {
    SMS_GROUP_NUMBERS: POOL.join(','),
    SMS_MONTHLY_ALLOWANCE: '40',
    SMS_CREDIT_NOTICE_BELOW: '0',
    SMS_JOIN_TEXTS_PER_INVITE: '4',
    SMS_GROUPS_PER_DAY: '20',
    RATE_LIMIT_PER_MINUTE: '24000',
  });
  const { twilio, sentTo, waitFor, textFrom, signedIn } = texting;
  const nextPhone = phoneNumbers(transport === 'nats' ? 8500 : 8700);
  /** The stored outcome of a text once it is answered (its texts are handed to Twilio before it is). */
  const outcome = (messageSid: string) =>
    eventually(async () => {
      const { rows } = await texting.booted.db.query('SELECT status, body FROM sms.inbound_message WHERE message_sid = $1', [messageSid]);
      const row = rows[0] as { status: string; body: string } | undefined;
      return row && !['received', 'processing'].includes(row.status) ? row : undefined;
    }, 15_000);
  /** The text to `phone` that ends with `ending`, once it has come (texts leave through the outbox, after the outcome is stored). */
  const arrived = (phone: string, ending: string) => eventually(async () => sentTo(phone).find((m) => m.body.endsWith(ending)), 15_000);
  /** Texts and waits for its outcome. */
  const text = async (from: string, to: string, body: string, extra: Partial<Parameters<FakeTwilio['sendInbound']>[1]> = {}) => {
    const sent = await textFrom(from, to, body, extra);
    expect(sent.status).toBe(200);
    return outcome(sent.messageSid);
  };

  const createGroup = async (web: ApiClient, name: string) =>
    (await web.post('/api/v1/sms/groups', { name }).expect(201)).body as { channel_url: string; phone_number: string };
  const inviteTo = async (web: ApiClient, group: { channel_url: string }) =>
    (await web.post(`/api/v1/sms/groups/${group.channel_url}/invites`).expect(201)).body as { invite_id: string };
  const join = (invite: { invite_id: string }, phone: string) =>
    request(texting.booted.stack.url).post(`/api/v1/sms/group-invites/${invite.invite_id}/join`).send({ phone_number: phone });

  /** The phone is invited, answers YES on the number the invitation came from, and is a member. */
  async function joinBy(invite: { invite_id: string }, phone: string): Promise<string> {
    const before = sentTo(phone).length;
    expect((await join(invite, phone)).status).toBe(202);
    const ask = (await waitFor(phone, before + 1)).at(-1)!;
    expect(ask.body).toMatch(/Reply YES to join/);
    expect((await text(phone, ask.from, 'YES')).status).toBe('joined_group');
    return ask.from;
  }

  it('walks one text down each path of the pipeline: one-to-one, keyword, group relay, group question, refused', async () => {
    const owner = nextPhone();
    const web = await signedIn(owner);
    const group = await createGroup(web, 'Walk');
    const member = nextPhone();
    const onGroup = await joinBy(await inviteTo(web, group), member);
    const walk = [
      ['one-to-one', owner, ASSISTANT, 'What is the capital of France?', 'answered'],
      ['keyword', owner, ASSISTANT, 'HELP', 'helped'],
      ['group relay', member, onGroup, 'See you at 8', 'relayed'],
      ['group question', member, onGroup, 'Assistant, what should we bring?', 'relayed'],
      ['refused', owner, '+15005550999', 'Who is this?', 'refused_unknown_number'],
    ] as const;
    for (const [path, from, to, body, status] of walk) expect([path, (await text(from, to, body)).status]).toEqual([path, status]);
    // The group question's answer reached both members, each from their own number for the group.
    const answered = (phone: string) =>
      eventually(async () =>
        sentTo(phone).find(
          (m) => m.body !== '' && m.from === (phone === member ? onGroup : group.phone_number) && /offline model/i.test(m.body),
        ),
      );
    expect(await answered(owner)).toBeDefined();
    expect(await answered(member)).toBeDefined();
    expect(await arrived(owner, 'See you at 8')).toMatchObject({ from: group.phone_number });
  });

  describe('a member of several groups', () => {
    let olga: string;
    let web: ApiClient;
    let family: { channel_url: string; phone_number: string };
    let work: { channel_url: string; phone_number: string };
    let m1: string;
    let m2: string;

    beforeAll(async () => {
      olga = nextPhone();
      web = await signedIn(olga);
      family = await createGroup(web, 'Family');
      work = await createGroup(web, 'Work');
      m1 = nextPhone();
      m2 = nextPhone();
      await joinBy(await inviteTo(web, family), m1);
      await joinBy(await inviteTo(web, work), m2);
    });

    it("has each of their groups on a number of their own: the creator's texts reach only the group they meant", async () => {
      expect(family.phone_number).not.toBe(work.phone_number);
      expect(POOL).toEqual(expect.arrayContaining([family.phone_number, work.phone_number]));
      const secret = 'FAMILY-ONLY: grandma is in hospital';
      expect(await text(olga, family.phone_number, secret)).toMatchObject({ status: 'relayed' });
      expect(await arrived(m1, secret)).toMatchObject({ from: family.phone_number });
      expect(sentTo(m2).filter((m) => m.body.includes('FAMILY-ONLY'))).toEqual([]);
      const other = 'WORK-ONLY: the launch moved to Friday';
      expect(await text(olga, work.phone_number, other)).toMatchObject({ status: 'relayed' });
      expect(await arrived(m2, other)).toMatchObject({ from: work.phone_number });
      expect(sentTo(m1).filter((m) => m.body.includes('WORK-ONLY'))).toEqual([]);
    });

    it("and a member's texts too, in both directions, with three groups", async () => {
      const m3 = nextPhone();
      const trip = await createGroup(web, 'Trip');
      const onFamily = await joinBy(await inviteTo(web, family), m3);
      const onWork = await joinBy(await inviteTo(web, work), m3);
      const onTrip = await joinBy(await inviteTo(web, trip), m3);
      expect(new Set([onFamily, onWork, onTrip]).size).toBe(3);
      // Olga's number for Trip is the one left in the pool; m3's may differ: each member has their own.
      expect(POOL).toContain(trip.phone_number);
      expect(await text(m3, onWork, 'm3 to work only')).toMatchObject({ status: 'relayed' });
      expect(await arrived(m2, 'm3 to work only')).toMatchObject({ from: work.phone_number });
      expect(await arrived(olga, 'm3 to work only')).toMatchObject({ from: work.phone_number });
      expect(sentTo(m1).filter((m) => m.body.includes('m3 to work only'))).toEqual([]);
      expect(await text(m3, onTrip, 'm3 to trip only')).toMatchObject({ status: 'relayed' });
      expect(await arrived(olga, 'm3 to trip only')).toMatchObject({ from: trip.phone_number });
      expect([...sentTo(m1), ...sentTo(m2)].filter((m) => m.body.includes('m3 to trip only'))).toEqual([]);
    });

    it('refuses a fourth group to a creator whose three numbers are taken (409), and a join that would need a fourth (409 and a text)', async () => {
      // Olga has Family, Work and Trip: one on each number.
      const refused = await web.post('/api/v1/sms/groups', { name: 'Choir' });
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/as many as this service has group numbers/);
      const other = await signedIn(nextPhone());
      const choir = await createGroup(other, 'Choir');
      const before = sentTo(olga).length;
      const res = await join(await inviteTo(other, choir), olga);
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/already in 3 groups/);
      const told = (await waitFor(olga, before + 1)).at(-1)!;
      expect(told).toMatchObject({ from: ASSISTANT });
      expect(told.body).toMatch(/could not join "Choir".*already in 3 groups/);
      // After leaving one, the join goes through on the number that was freed.
      await web.delete(`/api/v1/sms/groups/${work.channel_url}/membership`).expect(204);
      expect(await joinBy(await inviteTo(other, choir), olga)).toBe(work.phone_number);
    });
  });

  describe('an invitation', () => {
    it('cannot be hijacked: with two pending, a bare YES joins neither; JOIN <code> joins the one meant, and its texts go there only', async () => {
      const real = await signedIn(nextPhone());
      const family = await createGroup(real, 'Family');
      const attacker = await signedIn(nextPhone());
      const fake = await createGroup(attacker, 'Family call +1 415 555 0199 www.evil.example');
      const victim = nextPhone();
      expect((await join(await inviteTo(real, family), victim)).status).toBe(202);
      expect((await join(await inviteTo(attacker, fake), victim)).status).toBe(202);
      const asks = await waitFor(victim, 2);
      // Names from strangers arrive without a number to call or a link.
      for (const ask of asks) expect(ask.body).not.toMatch(/555|0199|evil|www|http/);
      const list = asks[1].body;
      expect(list).toMatch(/2 group invitations/);
      const codes = [...list.matchAll(/JOIN (\d{4})/g)].map((m) => m[1]);
      expect(codes).toHaveLength(2);
      expect(new Set(codes).size).toBe(2);

      expect((await text(victim, asks[1].from, 'YES')).status).toBe('join_ambiguous');
      expect((await real.get(`/api/v1/sms/groups/${family.channel_url}`).expect(200)).body.members).toHaveLength(1);
      expect((await attacker.get(`/api/v1/sms/groups/${fake.channel_url}`).expect(200)).body.members).toHaveLength(1);

      // The first invitation listed is the first sent (the real one).
      const joined = await text(victim, asks[1].from, `join ${codes[0]}`);
      expect(joined.status).toBe('joined_group');
      const welcome = sentTo(victim).at(-1)!;
      expect(welcome.body).toMatch(/you joined "Family"/);
      const secret = 'the door code is 9911';
      expect((await text(victim, welcome.from, secret)).status).toBe('relayed');
      const attackerPhone = (await attacker.get('/api/v1/auth/me').expect(200)).body.phone_number as string;
      const realPhone = (await real.get('/api/v1/auth/me').expect(200)).body.phone_number as string;
      expect(sentTo(realPhone).some((m) => m.body.endsWith(secret))).toBe(true);
      expect(sentTo(attackerPhone).some((m) => m.body.includes('9911'))).toBe(false);
      // A code that matches nothing joins nothing.
      expect((await text(victim, welcome.from, 'JOIN 0000')).status).toBe('join_code_unknown');
    });

    it('is never texted to a blocked region, a satellite or non-mobile number, or the service itself', async () => {
      const web = await signedIn(nextPhone());
      const invite = await inviteTo(web, await createGroup(web, 'Book club'));
      const cases: [string, number][] = [
        ['+8613800138000', 451],
        ['+8816123456789', 422],
        ['+882123456789', 422],
        ['+442071234567', 422],
        [ASSISTANT, 422],
        [POOL[1], 422],
      ];
      for (const [phone, status] of cases) {
        const res = await join(invite, phone);
        expect([phone, res.status]).toEqual([phone, status]);
        expect(res.body).toEqual({ detail: expect.any(String) });
      }
      for (const [phone] of cases) expect(sentTo(phone)).toEqual([]);
    });

    it('from one link reaches at most SMS_JOIN_TEXTS_PER_INVITE numbers a day (then 429)', async () => {
      const web = await signedIn(nextPhone());
      const invite = await inviteTo(web, await createGroup(web, 'Neighbours'));
      const phones = [nextPhone(), nextPhone(), nextPhone(), nextPhone(), nextPhone()];
      const statuses = [];
      for (const phone of phones) statuses.push((await join(invite, phone)).status);
      expect(statuses).toEqual([202, 202, 202, 202, 429]);
      const refused = await join(invite, nextPhone());
      expect(refused.body.detail).toMatch(/invite link has sent too many invitations/);
      await waitFor(phones[3], 1);
      expect(sentTo(phones[4])).toEqual([]);
    });
  });

  describe('what the operator pays for', () => {
    it('answers HELP once a day, however often it is sent', async () => {
      const phone = nextPhone();
      const outcomes = [];
      for (let i = 0; i < 5; i++) outcomes.push((await text(phone, ASSISTANT, i % 2 ? 'INFO' : 'help')).status);
      expect(outcomes).toEqual(['helped', 'helped_recently', 'helped_recently', 'helped_recently', 'helped_recently']);
      const texted = await waitFor(phone, 1);
      expect(texted).toHaveLength(1);
      expect(texted[0].body).toMatch(/STOP/);
    });

    it('sends nothing more to a member who texted STOP: not the relays of the others, not the answers to the group', async () => {
      const owner = nextPhone();
      const web = await signedIn(owner);
      const group = await createGroup(web, 'Quiet please');
      const member = nextPhone();
      const onGroup = await joinBy(await inviteTo(web, group), member);
      expect((await text(member, onGroup, 'stop please')).status).toBe('opted_out');
      const before = sentTo(member).length;
      expect((await text(owner, group.phone_number, 'Assistant, are you there?')).status).toBe('relayed');
      // The text's outcome is stored once its relay and the group's answer were queued and handed to the sender.
      const { rows } = await texting.booted.db.query(
        "SELECT purpose, status FROM sms.outbound_message WHERE to_number = $1 AND purpose IN ('relay', 'reply') ORDER BY created_at",
        [member],
      );
      expect(rows).toEqual([]);
      expect(sentTo(member)).toHaveLength(before);
      // The owner, who did not stop, got the assistant's answer.
      await eventually(async () => (sentTo(owner).some((m) => /offline model/i.test(m.body)) ? true : undefined));
    });

    it("counts each relayed copy against the sender's allowance, and relays nothing past it", async () => {
      const owner = nextPhone();
      const web = await signedIn(owner);
      const group = await createGroup(web, 'Relay budget');
      const members = [nextPhone(), nextPhone(), nextPhone()];
      for (const member of members) await joinBy(await inviteTo(web, group), member);
      const usage = async () => (await web.get('/api/v1/sms/me').expect(200)).body.texts_used as number;
      const before = await usage();
      expect((await text(owner, group.phone_number, 'hello all')).status).toBe('relayed');
      expect(await usage()).toBe(before + 3);
      // Spend the rest of the month (40) by relays: 3 a time.
      let last = 'relayed';
      for (let i = 0; i < 20 && last === 'relayed'; i++) last = (await text(owner, group.phone_number, `note ${i}`)).status;
      expect(last).toBe('over_allowance');
      expect(await usage()).toBeLessThanOrEqual(40);
      const relaysTo = (member: string) => sentTo(member).filter((m) => / note \d+$/.test(m.body) || /: note \d+$/.test(m.body)).length;
      const relayed = relaysTo(members[0]);
      expect((await text(owner, group.phone_number, 'one more')).status).toBe('over_allowance');
      expect(relaysTo(members[0])).toBe(relayed);
      expect(sentTo(members[0]).some((m) => m.body.endsWith('one more'))).toBe(false);
      // The owner was told once that the month's texts are spent.
      expect(sentTo(owner).filter((m) => /reached your 40 texts/.test(m.body))).toHaveLength(1);
    });
  });

  describe('what a phone sends', () => {
    it('a text with a NUL byte and other control characters is stored cleaned and answered', async () => {
      const phone = nextPhone();
      const row = await text(phone, ASSISTANT, 'Hello\u0000 there\u0007, how are you?');
      expect(row).toEqual({ status: 'answered', body: 'Hello there, how are you?' });
      // The answer leaves through the outbox, after the text's outcome is stored.
      expect(await waitFor(phone, 1)).toHaveLength(1);
    });

    it('a text to a number that is not ours is stored as refused and gets no reply', async () => {
      const phone = nextPhone();
      expect((await text(phone, '+15005550999', 'Who is this?')).status).toBe('refused_unknown_number');
      expect(sentTo(phone)).toEqual([]);
    });

    it('a picture over 500 KB is downscaled for the model; one that is not a picture is answered with one short text saying so', async () => {
      const phone = nextPhone();
      // Noise does not compress: a 1200 px photo of it is megabytes, as a phone's photo is.
      const noisy = randomBytes(1200 * 1200 * 3);
      const big = await sharp(noisy, { raw: { width: 1200, height: 1200, channels: 3 } })
        .png()
        .toBuffer();
      expect(big.length).toBeGreaterThan(500 * 1024);
      const row = await text(phone, ASSISTANT, 'What is in this picture?', { mediaUrls: [twilio.hostMedia(big)] });
      expect(row.status).toBe('answered');
      const { rows } = await texting.booted.db.query(
        'SELECT f.mime_type, f.size FROM files.file_object f JOIN sms.inbound_message i ON i.user_id = f.user_id WHERE i.from_number = $1',
        [phone],
      );
      expect(rows).toEqual([{ mime_type: 'image/jpeg', size: expect.any(String) }]);
      expect(Number(rows[0].size)).toBeLessThanOrEqual(500 * 1024);

      const other = nextPhone();
      const broken = await text(other, ASSISTANT, '', {
        mediaUrls: [twilio.hostMedia(Buffer.alloc(600 * 1024, 7))],
        mediaTypes: ['image/jpeg'],
      });
      expect(broken.status).toBe('picture_unreadable');
      // Its text leaves through the outbox, after the outcome is stored.
      expect((await waitFor(other, 1)).map((m) => m.body)).toEqual([expect.stringMatching(/could not read the picture/)]);
    });
  });
});

/** The operator's ceiling: past SMS_TEXTS_PER_DAY texts are held, not sent; the metric counts them. */
describe("the operator's ceiling of texts a day", () => {
  const ceiling = smsStack('smsceiling', 'in-process', { SMS_TEXTS_PER_DAY: '3' });
  const { twilio } = ceiling;
  const nextPhone = phoneNumbers(8900);

  it('sends three texts, then holds the rest (status held) without calling Twilio', async () => {
    const phones = [nextPhone(), nextPhone(), nextPhone(), nextPhone(), nextPhone()];
    for (const phone of phones) {
      const sent = await twilio.sendInbound(`${ceiling.booted.stack.url}${INBOUND}`, { from: phone, to: ASSISTANT, body: 'Hello?' });
      expect(sent.status).toBe(200);
    }
    const statuses = await eventually(async () => {
      const { rows } = await ceiling.booted.db.query('SELECT status FROM sms.outbound_message WHERE to_number = ANY($1)', [phones]);
      const list = (rows as { status: string }[]).map((r) => r.status).sort();
      return list.length === 5 && !list.some((s) => ['pending', 'sending', 'retrying'].includes(s)) ? list : undefined;
    }, 15_000);
    expect(statuses).toEqual(['held', 'held', 'queued', 'queued', 'queued']);
    expect(twilio.messages().filter((m) => phones.includes(m.to))).toHaveLength(3);
  });
});
