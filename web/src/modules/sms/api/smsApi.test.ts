import { CreateGroupBodySchema } from '@app/contracts/sms';
import { describe, expect, it } from 'vitest';
import { GROUP_NAME_MAX } from './smsApi';

describe('the text channel calls', () => {
  it('keep the contract’s longest group name (repeated so the pages do not load the schemas)', () => {
    expect(CreateGroupBodySchema.safeParse({ name: 'x'.repeat(GROUP_NAME_MAX) }).success).toBe(true);
    expect(CreateGroupBodySchema.safeParse({ name: 'x'.repeat(GROUP_NAME_MAX + 1) }).success).toBe(false);
  });
});
