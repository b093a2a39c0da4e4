import { E164Schema } from '@app/contracts/sms';
import { describe, expect, it } from 'vitest';
import { formatPhone, normalisePhone, randomDevNumber } from './phone';

const e164 = (input: string, northAmerican = true) => {
  const checked = normalisePhone(input, { northAmerican });
  return checked.ok ? checked.e164 : `ERR ${checked.message}`;
};

describe('normalisePhone', () => {
  it('reads local formatting into E.164', () => {
    expect(e164('+1 (415) 555-0100')).toBe('+14155550100');
    expect(e164('(415) 555-0100')).toBe('+14155550100');
    expect(e164('415.555.0100')).toBe('+14155550100');
    expect(e164('1-415-555-0100')).toBe('+14155550100');
    expect(e164('+44 7700 900123')).toBe('+447700900123');
    expect(e164('0044 7700 900123')).toBe('+447700900123');
    expect(e164('  +33 6 12 34 56 78 ')).toBe('+33612345678');
  });

  it('answers only numbers the server accepts', () => {
    for (const input of ['+1 415 555 0100', '0044 7700 900123', '4155550100']) {
      const checked = normalisePhone(input);
      expect(checked.ok && E164Schema.safeParse(checked.e164).success).toBe(true);
    }
  });

  it('says what is wrong, helpfully', () => {
    expect(e164('')).toBe('ERR Enter your mobile number.');
    expect(e164('call me')).toMatch(/^ERR Use digits only, like \+1 415 555 0100\.$/);
    expect(e164('07700 900123')).toMatch(/^ERR Include your country code/);
    expect(e164('4155550100', false)).toMatch(/^ERR Include your country code/);
    expect(e164('+0 123 456 789')).toMatch(/never starts with 0/);
    expect(e164('+1 555')).toMatch(/too short/);
    expect(e164('+1234567890123456')).toMatch(/too long/);
    expect(e164('+1 415 +555 0100')).toMatch(/only at the start/);
  });

  it('formats North American numbers for reading and leaves others as they are', () => {
    expect(formatPhone('+14155550100')).toBe('+1 415 555 0100');
    expect(formatPhone('+447700900123')).toBe('+447700900123');
  });

  it('makes development numbers in the fictional 555-01XX range of a real area code', () => {
    expect(randomDevNumber(() => 0.42)).toBe('+14155550142');
    for (let i = 0; i < 20; i++) {
      const number = randomDevNumber();
      expect(number).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
      expect(E164Schema.safeParse(number).success).toBe(true);
    }
  });
});
