import { keywordOf } from '../keywords';
import type { Membership } from '../store/groups.repository';
import { routeOf, type RouteFacts } from './route.step';

const family: Membership = {
  id: 'g1',
  channelUrl: 'family-1234',
  name: 'Family',
  phoneNumber: '+15005550007',
  ownerUserId: 'u1',
  chatId: 'c1',
  createdAt: new Date(),
  label: 'Olga',
  serviceNumber: '+15005550007',
};

const facts = (body: string, extra: Partial<RouteFacts> = {}): RouteFacts => ({
  toAssistant: true,
  toGroupNumber: false,
  keyword: keywordOf(body),
  joinCode: /^join (\d{4})$/i.exec(body)?.[1] ?? null,
  optedOut: false,
  hasPendingJoin: false,
  membership: null,
  ...extra,
});
const toGroup = { toAssistant: false, toGroupNumber: true };

describe('routeOf: where a text goes', () => {
  it.each<[string, string, Partial<RouteFacts>, string]>([
    ['a question to the assistant', 'What is the capital of France?', {}, 'reply'],
    ['a text to a number that is not ours', 'Hi', { toAssistant: false, toGroupNumber: false }, 'refused'],
    ['STOP even to a number that is not ours? no: refused first', 'STOP', { toAssistant: false }, 'refused'],
    ['STOP', 'stop', {}, 'keyword:stop'],
    ['STOP to a group number stops everything', 'STOP', { ...toGroup, membership: family }, 'keyword:stop'],
    ['STOP from an opted-out number is still STOP', 'STOP', { optedOut: true }, 'keyword:stop'],
    ['START', 'start', {}, 'keyword:start'],
    ['YES from an opted-out number subscribes again', 'YES', { optedOut: true, hasPendingJoin: true }, 'keyword:start'],
    ['anything else from an opted-out number', 'Hello?', { optedOut: true }, 'ignored'],
    ['HELP from an opted-out number', 'HELP', { optedOut: true }, 'ignored'],
    ['YES with an invitation waiting', 'yes', { hasPendingJoin: true }, 'join'],
    ['YES on a group number with an invitation waiting', 'YES', { ...toGroup, hasPendingJoin: true }, 'join'],
    ['YES with nothing waiting is a plain text', 'Yes', {}, 'reply'],
    ['a JOIN code', 'JOIN 4821', {}, 'join'],
    ['a member texting their group', 'Dinner at 8?', { ...toGroup, membership: family }, 'group'],
    ['HELP to a group number goes to the group', 'help', { ...toGroup, membership: family }, 'group'],
    ['a stranger texting a group number', 'Hi all', toGroup, 'not_a_member'],
    ['HELP to the assistant', 'HELP', {}, 'keyword:help'],
  ])('%s', (_name, body, extra, expected) => {
    const route = routeOf(facts(body, extra));
    expect(route.kind === 'keyword' ? `keyword:${route.keyword}` : route.kind).toBe(expected);
  });

  it('keeps the code of a JOIN and the group of a member', () => {
    expect(routeOf(facts('join 0042'))).toEqual({ kind: 'join', code: '0042' });
    expect(routeOf(facts('Hi', { ...toGroup, membership: family }))).toEqual({ kind: 'group', membership: family });
  });
});
