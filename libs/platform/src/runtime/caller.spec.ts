import { systemCaller, type Caller } from '@app/contracts';
import { DomainError } from '../errors/domain-error';
import { userIdOf } from './caller';

const caller = (overrides: Partial<Caller> = {}): Caller => ({
  user_id: 'u-1',
  is_anon: false,
  session_id: 's-1',
  request_id: 'r-1',
  ...overrides,
});

function refusal(call: () => unknown): DomainError {
  try {
    call();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('userIdOf', () => {
  it('is the verified caller’s id', () => {
    expect(userIdOf(caller())).toBe('u-1');
    expect(userIdOf(caller({ user_id: 'anon-7', is_anon: true }))).toBe('anon-7');
  });

  it('refuses a call without a user as 401 "Not authenticated" (the system caller included)', () => {
    for (const without of [caller({ user_id: null }), caller({ user_id: '' }), systemCaller('r-2')]) {
      const error = refusal(() => userIdOf(without));
      expect(error.toShape()).toEqual({ status: 401, code: 'unauthorized', detail: 'Not authenticated' });
    }
  });
});
