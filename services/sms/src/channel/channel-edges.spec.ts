import { destinationRefusal } from './destinations';
import { cleanBody, paramsOf } from './inbound.service';
import { safeLabel } from './texts';

describe('what a phone sends', () => {
  it.each([
    ['Hello\u0000 there', 'Hello there'],
    ['bell\u0007 and escape\u001b[0m', 'bell and escape[0m'],
    ['line\r\nends\rhere', 'line\nends\nhere'],
    ['tab\there', 'tab here'],
    ['lone \ud800 surrogate', 'lone \ufffd surrogate'],
    ['DEL\u007f and C1\u0085', 'DEL and C1'],
    ['émoji 😀 and 中文 stay', 'émoji 😀 and 中文 stay'],
  ])('%j is kept as %j', (body, clean) => {
    expect(cleanBody(body)).toBe(clean);
  });

  it('keeps at most 1,600 characters', () => {
    expect(cleanBody('a'.repeat(5000))).toHaveLength(1600);
  });

  it('decodes the fields the gateway carried in base64, as Twilio signed them', () => {
    const body = Buffer.from('Hi\u0000', 'utf8').toString('base64');
    expect(paramsOf({ url: 'https://x', signature: 's', params: { Body: body, From: '+1' }, encoded: ['Body'] })).toEqual({
      Body: 'Hi\u0000',
      From: '+1',
    });
  });
});

describe('names a stranger chose, in a text to someone else', () => {
  it.each([
    ['Family', 'Family'],
    ['Call +1 (415) 555-0199 now', 'Call now'],
    ['Visit https://evil.example/x or www.evil.example', 'Visit or'],
    ['evil.example', 'x'],
    ['Ünïcödé “quotes” — dash', 'Unicode quotes dash'],
    ['+1******1589', '+1******1589'],
    ['A'.repeat(50), 'A'.repeat(30)],
    ['😀😀', 'x'],
  ])('%j reads %j', (name, safe) => {
    expect(safeLabel(name, 30, 'x')).toBe(safe);
  });
});

describe('numbers the channel never texts', () => {
  const policy = { ownNumbers: ['+15005550006'], blockedCountries: ['CN'] };
  it.each([
    ['+15005550006', 'own_number'],
    ['+8613800138000', 'blocked_region'],
    ['+8816123456', 'not_mobile'],
    ['+882123456789', 'not_mobile'],
    ['+870123456789', 'not_mobile'],
    ['+442071234567', 'not_mobile'],
    ['+18005551234', 'not_mobile'],
    ['+19005551234', 'not_mobile'],
    ['+14155550123', null],
    ['+447700900123', null],
    ['+33612345678', null],
  ])('%s: %s', (phone, refusal) => {
    expect(destinationRefusal(phone, policy)).toBe(refusal);
  });
});
