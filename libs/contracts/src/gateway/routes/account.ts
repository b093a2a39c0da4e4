import { z } from 'zod';
import { AccountDeletionSchema, AUTH_RPC, CampaignSchema, CreateInviteBodySchema, InviteSchema } from '../../auth/index';
import { defineRoute } from '../route';
import { name } from './common';

/** The routes of the area `account` (`API.account`). */
export const accountRoutes = {
  export: defineRoute({
    method: 'GET',
    path: '/api/v1/users/me/export',
    summary: 'Everything held about the caller, as a zip',
    tag: 'account',
    auth: 'bearer',
    produces: 'application/zip',
    response: z.string(),
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/api/v1/users/me',
    summary: 'Delete the account and all its data (204 done, 202 still finishing)',
    tag: 'account',
    auth: 'bearer',
    response: null,
    status: 204,
    otherAnswers: { 202: AccountDeletionSchema.pick({}) },
  }),
  createInvite: defineRoute({
    method: 'POST',
    path: '/api/v1/invites',
    summary: 'Create an invite link (needs can_create_invite)',
    tag: 'account',
    auth: 'bearer',
    body: CreateInviteBodySchema,
    response: InviteSchema,
    status: 201,
    errors: { 403: 'The caller may not create invites' },
    rpc: AUTH_RPC.createInvite,
  }),
  campaign: defineRoute({
    method: 'GET',
    path: '/api/v1/campaigns/:campaign_name',
    summary: 'A campaign page',
    tag: 'account',
    auth: 'public',
    params: z.object({ campaign_name: name(64) }),
    response: CampaignSchema,
    errors: { 404: 'No such campaign' },
    rpc: AUTH_RPC.campaign,
  }),
} as const;
