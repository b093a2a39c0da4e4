import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import { SMS_RPC } from '@app/contracts/sms';
import { DomainError, KEY_VALUE_STORE, RpcClient, SERVICE_CONFIG, type KeyValueStore } from '@app/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AuthConfig } from '../config';
import { InvitesService } from '../invites/invites.service';
import type { ClientInfo } from '../sessions/sessions.service';
import { AuthStore } from '../store/auth-store';
import { inviteFailure, LoginService } from './login.service';

export const REGION_BLOCKED = 'The assistant is not available in your region.';

/** Sign-in by a 6-digit code sent by text message. */
@Injectable()
export class PhoneLoginService {
  private pepper?: Promise<string>;

  constructor(
    private readonly store: AuthStore,
    private readonly login: LoginService,
    private readonly invites: InvitesService,
    private readonly rpc: RpcClient,
    @Inject(KEY_VALUE_STORE) private readonly kv: KeyValueStore,
    @Inject(SERVICE_CONFIG) private readonly config: AuthConfig,
  ) {}

  /** A number in E.164 form, refused when invalid or from a blocked country. */
  normalize(input: string): string {
    const parsed = parsePhoneNumberFromString(input.replace(/[\s().-]/g, ''));
    if (!parsed || !parsed.isValid()) {
      throw DomainError.badRequest('phone_number: enter a valid mobile number in international form, like +14155550123');
    }
    if (parsed.country && this.config.BLOCKED_COUNTRIES.includes(parsed.country)) {
      throw new DomainError('forbidden', REGION_BLOCKED, 451);
    }
    return parsed.number;
  }

  async sendCode(caller: Caller, input: { phone_number: string; invite_link_id?: string | null; client: ClientInfo }) {
    const phoneNumber = this.normalize(input.phone_number);
    if (input.invite_link_id && !(await this.invites.usable(input.invite_link_id))) {
      throw DomainError.badRequest('This invite link is not valid any more. It may have expired or been used up.');
    }
    await this.limit(`auth:codes:ip:${input.client.ip}`, 3600, this.config.PHONE_CODES_PER_IP, 'Too many codes were requested from your network. Try again in an hour.');
    await this.limit(`auth:codes:number:${phoneNumber}`, 600, this.config.PHONE_CODES_PER_NUMBER, 'Too many codes were requested for this number. Try again in 10 minutes.');

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeId = randomUUID();
    const ttl = this.config.PHONE_CODE_TTL_SECONDS;
    await this.store.transaction(async (repos) => {
      await repos.codes.retireOpen(phoneNumber);
      await repos.codes.insert({
        id: codeId,
        phoneNumber,
        codeHash: await this.hash(phoneNumber, code),
        expiresAt: new Date(Date.now() + ttl * 1000),
        guestUserId: caller.is_anon ? caller.user_id : null,
      });
    });
    const minutes = Math.round(ttl / 60);
    await this.rpc.call(
      SMS_RPC.send,
      { to: phoneNumber, body: `${code} is your Assistant sign-in code. It expires in ${minutes} minutes. Do not share it.`, purpose: 'login_code' },
      caller,
    );
    return { sent: true as const, expires_in_seconds: ttl };
  }

  async verifyCode(
    caller: Caller,
    input: { phone_number: string; code: string; invite_link_id?: string | null; campaign_name?: string | null; client: ClientInfo },
  ): Promise<LoginOutcome> {
    const phoneNumber = this.normalize(input.phone_number);
    if (input.invite_link_id && !(await this.invites.usable(input.invite_link_id))) return inviteFailure();
    await this.limit(`auth:verify:ip:${input.client.ip}`, 3600, this.config.PHONE_VERIFY_PER_IP, 'Too many sign-in attempts from your network. Try again in an hour.');
    const expected = await this.hash(phoneNumber, input.code.trim());
    const verdict = await this.store.transaction(async (repos) => {
      const open = await repos.codes.latestOpenForUpdate(phoneNumber);
      if (!open || open.expiresAt.getTime() <= Date.now()) return { ok: false as const, detail: 'This code has expired. Ask for a new one.' };
      if (!safeEqual(open.codeHash, expected)) {
        open.attempts += 1;
        const burnt = open.attempts >= this.config.PHONE_CODE_MAX_ATTEMPTS;
        if (burnt) open.consumedAt = new Date();
        await repos.codes.save(open);
        return { ok: false as const, detail: burnt ? 'Too many wrong codes. Ask for a new one.' : 'That code is not right. Check the text message and try again.' };
      }
      open.consumedAt = new Date();
      await repos.codes.save(open);
      return { ok: true as const, guestUserId: open.guestUserId };
    });
    // A wrong guess is recorded (committed) before the refusal.
    if (!verdict.ok) throw DomainError.badRequest(verdict.detail);
    return this.login.signIn(
      { provider: 'phone', subject: phoneNumber, phoneNumber },
      { caller, client: input.client, inviteLinkId: input.invite_link_id, campaignName: input.campaign_name, guestUserId: verdict.guestUserId },
    );
  }

  private async limit(key: string, windowSeconds: number, max: number, detail: string): Promise<void> {
    if ((await this.kv.increment(key, windowSeconds)) > max) throw new DomainError('rate_limited', detail);
  }

  private async hash(phoneNumber: string, code: string): Promise<string> {
    this.pepper ??= this.store.keys.secret('phone-code-pepper', () => randomBytes(32).toString('base64'));
    return createHmac('sha256', await this.pepper).update(`${phoneNumber}:${code}`).digest('hex');
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
