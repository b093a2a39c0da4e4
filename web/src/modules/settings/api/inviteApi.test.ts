import { CreateInviteBodySchema } from '@app/contracts/auth';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { createInvite, INVITE_LIMITS, inviteLink } from './inviteApi';

const invite = {
  invite_link_id: 'inv_123',
  max_uses: 5,
  uses: 0,
  group_id: null,
  expires_at: '2025-10-01T00:00:00Z',
  created_at: '2025-09-24T00:00:00Z',
};

describe('invite links (issue 8)', () => {
  beforeEach(() => {
    signedIn();
  });

  it('keeps the contract’s limits and defaults', () => {
    const { maxUses, expiresInDays } = INVITE_LIMITS;
    expect(CreateInviteBodySchema.parse({})).toMatchObject({ max_uses: maxUses.default, expires_in_days: expiresInDays.default });
    expect(CreateInviteBodySchema.safeParse({ max_uses: maxUses.max, expires_in_days: expiresInDays.max }).success).toBe(true);
    expect(CreateInviteBodySchema.safeParse({ max_uses: maxUses.max + 1 }).success).toBe(false);
    expect(CreateInviteBodySchema.safeParse({ max_uses: maxUses.min - 1 }).success).toBe(false);
    expect(CreateInviteBodySchema.safeParse({ expires_in_days: expiresInDays.max + 1 }).success).toBe(false);
  });

  it('posts the uses and the days and answers the invite; a refusal says why', async () => {
    const api = mockFetch({ 'POST /api/v1/invites': json(201, invite) });
    await expect(createInvite({ max_uses: 5, expires_in_days: 7 })).resolves.toEqual(invite);
    expect(api.calls[0].body).toBe('{"max_uses":5,"expires_in_days":7}');
    mockFetch({ 'POST /api/v1/invites': json(403, { detail: 'You are not allowed to create invites.' }) });
    await expect(createInvite({ max_uses: 1, expires_in_days: 7 })).rejects.toThrow('You are not allowed to create invites.');
  });

  it('makes the link the login page reads', () => {
    expect(inviteLink('inv_123', 'https://assistant.example')).toBe('https://assistant.example/login?invite=inv_123');
  });
});
