import type { InviteSchema } from '@app/contracts/auth';
import { API } from '@app/contracts/gateway';
import type { z } from 'zod';
import { call } from '../../common/api/http';

export type Invite = z.infer<typeof InviteSchema>;
export type CreateInvite = { max_uses: number; expires_in_days: number };

/** Limits of CreateInviteBodySchema (max_uses 1-1000, expires_in_days 1-90). */
export const INVITE_LIMITS = { maxUses: { min: 1, max: 1000, default: 1 }, expiresInDays: { min: 1, max: 90, default: 7 } } as const;

/** POST /invites: 201 with the invite; 403 {detail} without can_create_invite. */
export const createInvite = (body: CreateInvite): Promise<Invite> => call(API.account.createInvite, { body });

/** The link a new user opens: the login page keeps `?invite=` for the sign-in. */
export const inviteLink = (inviteId: string, origin: string = window.location.origin) =>
  `${origin}/login?invite=${encodeURIComponent(inviteId)}`;
