import { systemCaller, type Caller } from '@app/contracts';
import { optedOutOfTextsDetail, SMS_RPC } from '@app/contracts/sms';
import { DomainError } from '@app/platform';
import { authUnit, type AuthUnit } from '../store/auth-unit-of-work.fake';
import { ACCOUNT_BEING_DELETED, LoginService, type SignInContext } from './login.service';
import { PHONE_TEXT, PhoneLoginService } from './phone-login.service';

const CLIENT = { ip: '203.0.113.9', user_agent: 'jest' };
const PHONE = '+14155550123';
const BROWSER = 'b'.repeat(43);
const OTHER_BROWSER = 'o'.repeat(43);
const GUEST = '00000000-0000-4000-8000-00000000000a';
const GUEST_SESSION = '00000000-0000-4000-8000-0000000000a1';
const OWNER = '00000000-0000-4000-8000-00000000000b';

const guestCaller = (userId = GUEST, sessionId = GUEST_SESSION): Caller => ({
  user_id: userId,
  is_anon: true,
  session_id: sessionId,
  request_id: 'r',
});
const nobody = (): Caller => systemCaller('r');
const profile = { provider: 'phone' as const, subject: PHONE, phoneNumber: PHONE };
const sessionOf = (token: string | null) => token?.split(':')[2];
const userOf = (token: string | null) => token?.split(':')[1];

let unit: AuthUnit;
let login: LoginService;
let phone: PhoneLoginService;

beforeEach(async () => {
  unit = await authUnit({ PHONE_CODES_PER_IP: 1000, PHONE_VERIFY_PER_IP: 1000, PHONE_CODES_PER_NUMBER: 100 });
  login = unit.get(LoginService);
  phone = unit.get(PhoneLoginService);
});

afterEach(() => unit.close());

function aGuest(options: { sessionRevoked?: boolean; sessionExpired?: boolean } = {}) {
  unit.data.addUser({ id: GUEST, isAnon: true });
  unit.data.addSession({
    id: GUEST_SESSION,
    userId: GUEST,
    revokedAt: options.sessionRevoked ? new Date() : null,
    expiresAt: new Date(Date.now() + (options.sessionExpired ? -1000 : 3600_000)),
  });
}

function anOwnerWithThePhone() {
  unit.data.addUser({ id: OWNER, isAnon: false, phoneNumber: PHONE, registered: true });
  unit.data.addIdentity(OWNER, 'phone', PHONE);
}

const signIn = (context: Partial<SignInContext> = {}) => login.signIn(profile, { client: CLIENT, guest: null, ...context });

describe('LoginService: which guest is carried into the account', () => {
  it("turns the live guest of the completing browser into a new account, and ends the guest's sessions", async () => {
    aGuest();
    const outcome = await signIn({ guest: { userId: GUEST, sessionId: GUEST_SESSION } });
    expect(userOf(outcome.token)).toBe(GUEST);
    expect(unit.data.tables.users.get(GUEST)).toMatchObject({ isAnon: false, phoneNumber: PHONE });
    expect(unit.data.tables.sessions.get(GUEST_SESSION)!.revokedAt).not.toBeNull();
    expect(sessionOf(outcome.token)).not.toBe(GUEST_SESSION);
    expect(unit.data.events.map((e) => e.subject)).not.toContain('events.user.merged');
  });

  it('merges the live guest into the existing account: the guest is gone, told to every service, its sessions ended', async () => {
    aGuest();
    anOwnerWithThePhone();
    const outcome = await signIn({ guest: { userId: GUEST, sessionId: GUEST_SESSION } });
    expect(userOf(outcome.token)).toBe(OWNER);
    expect(unit.data.tables.users.has(GUEST)).toBe(false);
    expect(unit.data.tables.sessions.has(GUEST_SESSION)).toBe(false); // gone with the guest
    expect(unit.data.events).toContainEqual({ subject: 'events.user.merged', payload: { from_user_id: GUEST, into_user_id: OWNER } });
  });

  it.each([
    ['its session was ended', { sessionRevoked: true }, GUEST_SESSION],
    ['its session expired', { sessionExpired: true }, GUEST_SESSION],
    ['the session is not its own', {}, '00000000-0000-4000-8000-0000000000ff'],
    ['no session was recorded', {}, null],
  ] as const)('carries no guest over when %s: a fresh account, the guest untouched', async (_case, guestState, sessionId) => {
    aGuest(guestState);
    if (sessionId && sessionId !== GUEST_SESSION) unit.data.addSession({ id: sessionId, userId: OWNER });
    const outcome = await signIn({ guest: { userId: GUEST, sessionId } });
    expect(userOf(outcome.token)).not.toBe(GUEST);
    expect(unit.data.tables.users.get(GUEST)).toMatchObject({ isAnon: true, phoneNumber: null });
  });

  it('never merges a registered user, even with a live session', async () => {
    unit.data.addUser({ id: GUEST, isAnon: false, registered: true });
    unit.data.addSession({ id: GUEST_SESSION, userId: GUEST });
    anOwnerWithThePhone();
    const outcome = await signIn({ guest: { userId: GUEST, sessionId: GUEST_SESSION } });
    expect(userOf(outcome.token)).toBe(OWNER);
    expect(unit.data.tables.users.has(GUEST)).toBe(true);
    expect(unit.data.tables.sessions.get(GUEST_SESSION)!.revokedAt).toBeNull();
  });

  it('refuses an account that is being deleted, and rolls back what came with the sign-in', async () => {
    anOwnerWithThePhone();
    await unit.data.repos.deletions.insert('00000000-0000-4000-8000-0000000000de', OWNER, ['chat']);
    const within = jest.fn(async () => undefined);
    await expect(signIn({ within })).rejects.toEqual(DomainError.conflict(ACCOUNT_BEING_DELETED));
    expect(within).toHaveBeenCalled();
    expect([...unit.data.tables.sessions.values()].filter((s) => s.userId === OWNER)).toEqual([]);
  });

  it('rolls the whole sign-in back when the invite is used up between the check and the redemption', async () => {
    await unit.data.repos.invites.insert({
      id: 'inv',
      createdBy: OWNER,
      groupId: null,
      maxUses: 1,
      expiresAt: new Date(Date.now() + 3600_000),
    });
    const usable = jest.spyOn(unit.data.repos.invites, 'findForUpdate').mockImplementation(async () => null);
    const outcome = await signIn({ inviteLinkId: 'inv' });
    expect(outcome).toMatchObject({ token: null, redirect_url: '/login-invite-error' });
    expect(unit.data.tables.users.size).toBe(0);
    usable.mockRestore();
  });
});

describe('PhoneLoginService: the code rules', () => {
  async function ask(caller: Caller = nobody(), binding = BROWSER) {
    await phone.sendCode(caller, { phone_number: PHONE, client: CLIENT, binding_hash: binding });
    return unit.rpc.codeTo(PHONE)!;
  }
  const verify = (code: string, binding: string | null = BROWSER) =>
    phone.verifyCode({ phone_number: PHONE, code, client: CLIENT, binding_hash: binding });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  const onCodeStep = (detail: string) => ({
    token: null,
    error: detail,
    redirect_url: `/login?step=code&error=${encodeURIComponent(detail)}`,
  });

  it('texts no code to a number that opted out of texts (STOP): a 409 saying how to opt back in, no code made (issue 21.4)', async () => {
    unit.rpc.answers.set(SMS_RPC.optOut.subject, () => ({ opted_out: true, service_number: '+15005550006' }));
    await expect(phone.sendCode(nobody(), { phone_number: PHONE, client: CLIENT, binding_hash: BROWSER })).rejects.toEqual(
      DomainError.conflict(optedOutOfTextsDetail('+15005550006')),
    );
    expect(optedOutOfTextsDetail('+15005550006')).toMatch(/opted out of texts.*text START to \+15005550006/);
    expect(unit.rpc.calls.filter((c) => c.subject === SMS_RPC.send.subject)).toEqual([]);
    expect(unit.data.code(PHONE)).toBeUndefined();
  });

  it("keeps the asking guest and their session with the code, and only a hash of the browser's binding", async () => {
    aGuest();
    await ask(guestCaller());
    expect(unit.data.code(PHONE)).toMatchObject({
      guestUserId: GUEST,
      guestSessionId: GUEST_SESSION,
      bindingHash: BROWSER,
      attempts: 0,
      consumedAt: null,
    });
    expect(unit.data.code(PHONE)!.codeHash).not.toContain(unit.rpc.codeTo(PHONE));
    await ask(nobody());
    expect(unit.data.code(PHONE)).toMatchObject({ guestUserId: null, guestSessionId: null });
  });

  it('lets another browser (or none) neither complete the code nor spend its tries', async () => {
    const code = await ask();
    for (const binding of [OTHER_BROWSER, null]) {
      for (const tried of [code, wrongFor(code)]) {
        expect(await verify(tried, binding)).toMatchObject({
          token: null,
          error: PHONE_TEXT.otherBrowser,
          redirect_url: `/login?error=${encodeURIComponent(PHONE_TEXT.otherBrowser)}`,
        });
      }
    }
    expect(unit.data.code(PHONE)).toMatchObject({ attempts: 0, consumedAt: null });
    expect((await verify(code)).token).toEqual(expect.any(String));
  });

  it('counts the tries left on the code step, uses the code up at the fifth, then refuses even the right code', async () => {
    const code = await ask();
    const wrong = wrongFor(code);
    for (const left of [4, 3, 2, 1]) expect(await verify(wrong)).toMatchObject(onCodeStep(PHONE_TEXT.wrongCode(left)));
    expect(PHONE_TEXT.wrongCode(1)).toBe('That code is not right. 1 try left.');
    expect(await verify(wrong)).toMatchObject(onCodeStep(PHONE_TEXT.usedUp));
    expect(await verify(code)).toMatchObject(onCodeStep(PHONE_TEXT.usedUp));
    expect(unit.data.code(PHONE)!.attempts).toBe(5);
  });

  it('refuses an expired code and an already used one on the code step', async () => {
    const code = await ask();
    unit.data.tables.codes.get(unit.data.code(PHONE)!.id)!.expiresAt = new Date(Date.now() - 1000);
    expect(await verify(code)).toMatchObject(onCodeStep(PHONE_TEXT.expired));
    const next = await ask();
    expect((await verify(next)).token).toEqual(expect.any(String));
    expect(await verify(next)).toMatchObject(onCodeStep(PHONE_TEXT.alreadyUsed));
  });

  it('uses the right code up with the sign-in only: a sign-in that fails leaves it usable', async () => {
    anOwnerWithThePhone();
    await unit.data.repos.deletions.insert('00000000-0000-4000-8000-0000000000de', OWNER, ['chat']);
    const code = await ask();
    await expect(verify(code)).rejects.toEqual(DomainError.conflict(ACCOUNT_BEING_DELETED));
    expect(unit.data.code(PHONE)).toMatchObject({ attempts: 0, consumedAt: null });
  });

  it('carries the asking guest over only when their own browser completes the code', async () => {
    aGuest();
    const code = await ask(guestCaller());
    expect(userOf((await verify(code)).token)).toBe(GUEST);
  });

  it('shows people no field names', () => {
    expect(() => phone.normalize('12345')).toThrow(
      DomainError.badRequest('Enter a valid mobile number in international form, like +14155550123'),
    );
    for (const text of [...Object.values(PHONE_TEXT).flatMap((t) => (typeof t === 'string' ? [t] : [])), PHONE_TEXT.wrongCode(3)]) {
      expect(text).not.toMatch(/[a-z]+_[a-z]+|:/);
    }
  });

  it('never needs a second connection inside a transaction, and reads the pepper once', async () => {
    const code = await ask();
    await verify(wrongFor(code));
    await ask();
    expect(unit.data.connectionsTakenInsideTransactions).toEqual([]);
    expect(unit.data.secretReads).toBe(1);
  });
});
