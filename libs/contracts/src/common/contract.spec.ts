import { z } from 'zod';
import { defineEvent, defineRpc } from './contract';
import { describeZodError } from './errors';

describe('contracts', () => {
  const any = { request: z.object({}), response: z.object({}), description: '' };

  it('accepts commands as <service>.<noun>.<verb> and events under events.', () => {
    expect(defineRpc({ subject: 'chat.conversation.create', ...any }).kind).toBe('rpc');
    expect(defineRpc({ subject: 'insider-config.flags.get', ...any }).subject).toBe('insider-config.flags.get');
    expect(defineEvent({ subject: 'events.chat.exchange.completed', payload: z.object({}), description: '' }).kind).toBe('event');
  });

  it('refuses malformed subjects and events outside events.', () => {
    expect(() => defineRpc({ subject: 'Chat.Create', ...any })).toThrow(/Invalid subject/);
    expect(() => defineRpc({ subject: 'chat', ...any })).toThrow(/Invalid subject/);
    expect(() => defineRpc({ subject: 'chat.*.create', ...any })).toThrow(/Invalid subject/);
    expect(() => defineRpc({ subject: 'events.chat.create', ...any })).toThrow(/events live under/);
    expect(() => defineEvent({ subject: 'chat.exchange.completed', payload: z.object({}), description: '' })).toThrow(/events live under/);
  });

  it('is frozen, so nobody changes a shared contract at run time', () => {
    const contract = defineRpc({ subject: 'chat.x.y', ...any });
    expect(Object.isFrozen(contract)).toBe(true);
  });

  it('describes validation failures with the field path', () => {
    const result = z.object({ user: z.object({ age: z.number().min(18) }) }).safeParse({ user: { age: 12 } });
    expect(result.success).toBe(false);
    expect(describeZodError(result.error!)).toMatch(/^user\.age: Too small/);
  });
});
