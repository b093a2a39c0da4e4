import { queuedText } from './queued-text';

const text = (body: string) =>
  queuedText({ to: '+14155550100', from: '+15005550006', body, purpose: 'reply', provider: 'twilio', userId: null });

describe('a queued text', () => {
  it.each<[string, string, string, 'GSM-7' | 'UCS-2', number]>([
    ['plain GSM-7', 'Hello there', 'Hello there', 'GSM-7', 1],
    ['a curly quote', 'It’s here', "It's here", 'GSM-7', 1],
    ['a member with no name', '+1••••••1589: hi', '+1******1589: hi', 'GSM-7', 1],
    ['an emoji', 'Done 😀', 'Done 😀', 'UCS-2', 1],
    ['160 characters and a dash', `${'a'.repeat(158)}–b`, `${'a'.repeat(158)}-b`, 'GSM-7', 1],
  ])('%s goes out as it is counted', (_label, body, sent, encoding, segments) => {
    expect(text(body)).toMatchObject({ body: sent, encoding, segments });
  });
});
