import { describe, expect, it } from 'vitest';
import { plainLoginError } from './loginErrors';

describe('errors shown on the sign-in page', () => {
  it('never carry a field name', () => {
    expect(plainLoginError('phone_number: enter a valid mobile number in international form, like +14155550123')).toBe(
      'Enter a valid mobile number in international form, like +14155550123',
    );
    expect(plainLoginError('body.phone_number: Too small')).toBe('Too small');
    expect(plainLoginError('phone_number: must not be empty; invite_link_id: too long')).toBe('Must not be empty; Too long');
  });

  it('leave people’s sentences alone', () => {
    expect(plainLoginError('That code is not right. 4 tries left.')).toBe('That code is not right. 4 tries left.');
    expect(plainLoginError('Too many codes were requested for this number. Try again in 10 minutes.')).toBe(
      'Too many codes were requested for this number. Try again in 10 minutes.',
    );
    expect(plainLoginError('Note: this is fine')).toBe('Note: this is fine');
    expect(plainLoginError('   ')).toBe('Something went wrong. Try again.');
  });
});
