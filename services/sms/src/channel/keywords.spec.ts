import { keywordOf } from './keywords';

describe('keywordOf: a short text whose clear intent is to stop is STOP', () => {
  it.each([
    'STOP',
    'stop',
    ' Stop! ',
    'STOP.',
    'stop!!',
    'Stop it',
    'stop please',
    'Please stop',
    'please stop texting me',
    'Please stop texting me.',
    'stop texting me thanks',
    'stop sending me messages',
    'Stop it now please!',
    'STOP STOP STOP',
    'unsubscribe',
    'unsubscribe me',
    'Unsubscribe me please',
    'no more texts',
    'No more messages please',
    'opt out',
    'opt me out',
    'opt-out',
    'quit texting me',
    'cancel my subscription',
    'end these messages',
    'can you stop texting me?',
    'stop ’em now',
    'ｓｔｏｐ',
  ])('%p', (body) => {
    expect(keywordOf(body)?.keyword).toBe('stop');
  });
});

describe('keywordOf: a text that merely mentions stopping is a message', () => {
  it.each([
    'how do I stop my dog barking?',
    "don't stop believing",
    'Don’t stop me now',
    'stop talking',
    'Stop the music',
    'I want to quit',
    'end it',
    'cancel it',
    'no more',
    'Can you tell me how to stop a nosebleed quickly?',
    'I told him to stop texting me, what should I do?',
    'what does unsubscribe mean in a newsletter',
    'My bus stop moved, where is the new one?',
    'stopwatch',
    '',
  ])('%p', (body) => {
    expect(keywordOf(body)).toBeNull();
  });
});

describe('keywordOf: the other keywords stay whole-text only', () => {
  it.each<[string, 'start' | 'help', string]>([
    ['START', 'start', 'START'],
    ['yes', 'start', 'YES'],
    ['unstop.', 'start', 'UNSTOP'],
    ['Info?', 'help', 'INFO'],
    ['help', 'help', 'HELP'],
  ])('%p is %p', (body, keyword, word) => {
    expect(keywordOf(body)).toEqual({ keyword, word });
  });

  it.each(['yes please', 'help me write a poem', 'start a timer'])('%p is no keyword', (body) => {
    expect(keywordOf(body)).toBeNull();
  });
});
