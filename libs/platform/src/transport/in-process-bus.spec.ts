import { subjectMatches } from './in-process-bus';

describe('subjectMatches (NATS wildcards)', () => {
  it.each([
    ['events.>', 'events.chat.exchange.completed', true],
    ['events.>', 'events', false],
    ['events.*.created', 'events.user.created', true],
    ['events.*.created', 'events.user.deleted', false],
    ['events.*', 'events.user.created', false],
    ['chat.health.check', 'chat.health.check', true],
    ['chat.health.check', 'chat.health', false],
  ])('%s against %s is %s', (pattern, subject, expected) => {
    expect(subjectMatches(pattern, subject)).toBe(expected);
  });
});
