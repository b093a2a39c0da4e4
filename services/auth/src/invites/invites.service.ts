import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { INSIDER_CONFIG_RPC } from '@app/contracts/insider-config';
import { DomainError, RpcClient } from '@app/platform';
import { randomBytes } from 'node:crypto';
import { AuthUnitOfWork, type AuthData, type AuthRepositories } from '../store/auth-unit-of-work';
import type { InviteEntity } from './invite.entity';

export const INVITE_ERROR = 'This invite link is not valid any more. It may have expired or been used up.';

export function toInviteView(invite: InviteEntity) {
  return {
    invite_link_id: invite.id,
    max_uses: invite.maxUses,
    uses: invite.uses,
    group_id: invite.groupId,
    expires_at: invite.expiresAt.toISOString(),
    created_at: invite.createdAt.toISOString(),
  };
}

/** Invite links: made by users allowed to (can_create_invite), redeemed at sign-in. */
@Injectable()
export class InvitesService {
  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    private readonly rpc: RpcClient,
  ) {}

  async create(caller: Caller, input: { max_uses: number; expires_in_days: number; group_id?: string | null }) {
    if (!caller.user_id || caller.is_anon) throw DomainError.forbidden('Sign in to create invites.');
    const { effective } = await this.rpc.call(INSIDER_CONFIG_RPC.effectiveFlags, { user_id: caller.user_id }, caller);
    if (effective.can_create_invite !== true) throw DomainError.forbidden('You are not allowed to create invites.');
    const invite = await this.store.repos.invites.insert({
      id: randomBytes(12).toString('base64url'),
      createdBy: caller.user_id,
      groupId: input.group_id ?? null,
      maxUses: input.max_uses,
      expiresAt: new Date(Date.now() + input.expires_in_days * 24 * 3600 * 1000),
    });
    return toInviteView(invite);
  }

  /** Whether an invite can still be used, without using it (checked before any sign-in work). */
  async usable(inviteId: string): Promise<boolean> {
    const invite = await this.store.repos.invites.find(inviteId);
    return invite !== null && this.open(invite);
  }

  /** Uses the invite for this user inside the sign-in transaction; false when it cannot be used. */
  async redeem(repos: AuthRepositories, inviteId: string, userId: string): Promise<boolean> {
    const invite = await repos.invites.findForUpdate(inviteId);
    if (!invite) return false;
    if (await repos.invites.hasRedeemed(invite.id, userId)) return true;
    if (!this.open(invite)) return false;
    await repos.invites.redeem(invite, userId);
    return true;
  }

  private open(invite: InviteEntity): boolean {
    return invite.expiresAt.getTime() > Date.now() && invite.uses < invite.maxUses;
  }
}
