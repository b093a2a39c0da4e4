import { E164Schema } from './index';
import { normalizePhone, stripPhoneFormatting } from './phone';

const e164 = (input: string, northAmerican = true) => {
  const checked = normalizePhone(input, { northAmerican });
  return checked.ok ? checked.e164 : `ERR ${checked.message}`;
};

describe('normalizePhone', () => {
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
      const checked = normalizePhone(input);
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
});

describe('stripPhoneFormatting', () => {
  it('drops what people type between digits, keeping the +', () => {
    expect(stripPhoneFormatting(' +1 (415) 555-0100 ')).toBe('+14155550100');
    expect(stripPhoneFormatting('+44.7700.900123')).toBe('+447700900123');
  });
});
