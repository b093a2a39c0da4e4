import type { Caller } from '@app/contracts';
import { refusal } from '@app/testing';
import { authUnit, fixTheDate, type AuthUnit } from '../store/auth-unit-of-work.fake';
import { UsersService } from './users.service';

const ADA = '00000000-0000-4000-8000-0000000000ad';
const GUEST = '00000000-0000-4000-8000-00000000a404';
const GONE = '00000000-0000-4000-8000-0000000000ff';
const TODAY = new Date('2026-11-21T12:00:00Z');

const callerOf = (userId: string | null, isAnon = false): Caller => ({
  user_id: userId,
  is_anon: isAnon,
  session_id: 's',
  request_id: 'r',
});
const ada = callerOf(ADA);

let unit: AuthUnit;
let users: UsersService;

beforeEach(async () => {
  // Only the calendar is fixed (the age is counted against today); timers stay real.
  fixTheDate(TODAY);
  unit = await authUnit();
  users = unit.get(UsersService);
  unit.data.addUser({ id: ADA, isAnon: false });
  unit.data.addUser({ id: GUEST, isAnon: true });
});

afterEach(async () => {
  await unit.close();
  jest.useRealTimers();
});

const stored = (id: string) => unit.data.tables.users.get(id)!;

describe('UsersService: age of majority', () => {
  it('accepts someone who turns 18 today, and records when the age was confirmed', async () => {
    const user = await users.confirmAge(ada, '2008-11-21');
    expect(user.onboarding_config).toEqual({ registered: false, onboarding_done: false });
    expect(stored(ADA).adultConfirmedAt).toEqual(TODAY);
  });

  it('refuses someone who turns 18 tomorrow (403), and records nothing', async () => {
    expect(await refusal(users.confirmAge(ada, '2008-11-22'))).toEqual({
      status: 403,
      detail: 'You must be 18 or older to use the assistant.',
    });
    expect(stored(ADA).adultConfirmedAt).toBeNull();
  });

  it('refuses impossible dates as a 400: in the future, or over 130 years ago', async () => {
    const impossible = { status: 400, detail: 'This date of birth is not possible. Check the year.' };
    expect(await refusal(users.confirmAge(ada, '2027-01-01'))).toEqual(impossible);
    expect(await refusal(users.confirmAge(ada, '1895-01-01'))).toEqual(impossible);
    expect((await users.confirmAge(ada, '1896-11-21')).user_id).toBe(ADA);
  });

  it('keeps the first confirmation time when the age is confirmed again', async () => {
    await users.confirmAge(ada, '1990-05-05');
    const first = stored(ADA).adultConfirmedAt;
    jest.setSystemTime(new Date('2026-11-22T12:00:00Z'));
    await users.confirmAge(ada, '1990-05-05');
    expect(stored(ADA).adultConfirmedAt).toEqual(first);
  });
});

describe('UsersService: registration needs both the age and the name, in either order', () => {
  it('age, then name', async () => {
    expect((await users.confirmAge(ada, '1990-05-05')).onboarding_config.registered).toBe(false);
    expect((await users.setName(ada, 'Ada')).onboarding_config.registered).toBe(true);
  });

  it('name, then age', async () => {
    const named = await users.setName(ada, 'Ada');
    expect([named.name, named.onboarding_config.registered]).toEqual(['Ada', false]);
    expect((await users.confirmAge(ada, '1990-05-05')).onboarding_config.registered).toBe(true);
  });

  it('a refused age leaves a named user unregistered', async () => {
    await users.setName(ada, 'Ada');
    await refusal(users.confirmAge(ada, '2010-01-01'));
    expect(stored(ADA).registered).toBe(false);
  });
});

describe('UsersService: finishing onboarding', () => {
  it('is refused with 409 until the user is registered', async () => {
    expect(await refusal(users.finishOnboarding(ada))).toEqual({ status: 409, detail: 'Confirm your age and your name first.' });
    expect(stored(ADA).onboardingDone).toBe(false);
  });

  it('is done once registered, and shows in the user view', async () => {
    await users.setName(ada, 'Ada');
    await users.confirmAge(ada, '1990-05-05');
    expect((await users.finishOnboarding(ada)).onboarding_config).toEqual({ registered: true, onboarding_done: true });
    expect((await users.me(ada)).onboarding_config.onboarding_done).toBe(true);
  });
});

describe('UsersService: who may change a record', () => {
  it('refuses a guest (403 "Sign in to continue.") for every change', async () => {
    const guest = callerOf(GUEST, true);
    for (const change of [users.setName(guest, 'G'), users.confirmAge(guest, '1990-05-05'), users.finishOnboarding(guest)]) {
      expect(await refusal(change)).toEqual({ status: 403, detail: 'Sign in to continue.' });
    }
    expect(stored(GUEST).name).toBeNull();
  });

  it('answers 401 for a caller without a user, or whose user no longer exists', async () => {
    for (const caller of [callerOf(null), callerOf(GONE)]) {
      expect((await refusal(users.me(caller))).status).toBe(401);
      expect((await refusal(users.setName(caller, 'X'))).status).toBe(401);
    }
  });

  it("changes only the caller's own record", async () => {
    await users.setName(ada, 'Ada');
    expect(stored(GUEST).name).toBeNull();
  });

  it('shows the record as the contract says (ISO time, onboarding flags)', async () => {
    const me = await users.me(ada);
    expect(me).toEqual({
      user_id: ADA,
      name: null,
      email: null,
      phone_number: null,
      is_anon: false,
      onboarding_config: { registered: false, onboarding_done: false },
      campaign_name: null,
      created_at: stored(ADA).createdAt.toISOString(),
    });
  });
});
