import { E164Schema } from '@app/contracts/sms';
import { describe, expect, it } from 'vitest';
import { formatPhone, randomDevNumber } from './phone';

describe('phone display and development numbers', () => {
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
