import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import { optedOutOfTextsDetail, SMS_RPC, stripPhoneFormatting } from '@app/contracts/sms';
import { AppLogger, DomainError, RpcClient, SERVICE_CONFIG, Throttler, type ThrottleLimit } from '@app/platform';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { createHmac, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AuthConfig } from '../config';
import { InvitesService } from '../invites/invites.service';
import type { ClientInfo } from '../sessions/sessions.service';
import { AuthUnitOfWork, type AuthData } from '../store/auth-unit-of-work';
import { inviteFailure, LoginService, type GuestCandidate } from './login.service';

export const REGION_BLOCKED = 'The assistant is not available in your region.';

/** What the sign-in page shows (no field names: these are read by people). */
export const PHONE_TEXT = {
  invalidNumber: 'Enter a valid mobile number in international form, like +14155550123',
  otherBrowser: 'This code was requested in another browser. Ask for a new code here.',
  wrongCode: (triesLeft: number) => `That code is not right. ${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left.`,
  usedUp: 'This code was used up by too many wrong tries. Ask for a new one.',
  expired: 'This code has expired. Ask for a new one.',
  alreadyUsed: 'This code has already been used. Ask for a new one.',
} as const;

export type PhoneConfig = Pick<
  AuthConfig,
  | 'PHONE_CODE_TTL_SECONDS'
  | 'PHONE_CODE_MAX_ATTEMPTS'
  | 'PHONE_CODES_PER_NUMBER'
  | 'PHONE_CODES_PER_IP'
  | 'PHONE_VERIFY_PER_IP'
  | 'BLOCKED_COUNTRIES'
>;

type Check =
  | { kind: 'ok'; codeId: string; guest: GuestCandidate | null }
  | { kind: 'refused'; detail: string; /** the page stays on the code step (the number is kept) */ codeStep: boolean };

/** A refusal the sign-in page shows: on the code step (`/login?step=code&error=`) or from the start (`/login?error=`). */
export function refusal(detail: string, codeStep: boolean): LoginOutcome {
  return {
    token: null,
    error: detail,
    redirect_url: `/login?${codeStep ? 'step=code&' : ''}error=${encodeURIComponent(detail)}`,
    session_id: null,
    expires_at: null,
  };
}

/**
 * Sign-in by a 6-digit code sent by text message. A code is bound to the browser that asked for it
 * (the hash of its `phone_login` cookie's nonce): another browser can neither complete it nor spend
 * its tries. Transactions stay short: the code is hashed before one starts, and the pepper is loaded
 * once, outside any.
 */
@Injectable()
export class PhoneLoginService implements OnApplicationBootstrap {
  private pepperLoad?: Promise<string>;

  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    private readonly login: LoginService,
    private readonly invites: InvitesService,
    private readonly rpc: RpcClient,
    private readonly throttler: Throttler,
    @Inject(SERVICE_CONFIG) private readonly config: PhoneConfig,
    private readonly logger: AppLogger,
  ) {
    this.limits = phoneLimits(config);
  }

  private readonly limits: ReturnType<typeof phoneLimits>;

  onApplicationBootstrap(): void {
    this.pepper().catch((error: unknown) =>
      this.logger.warn({ msg: 'Phone code pepper not loaded yet', error: String(error) }, 'PhoneLogin'),
    );
  }

  /** A number in E.164 form, refused when invalid or from a blocked country. */
  normalize(input: string): string {
    const parsed = parsePhoneNumberFromString(stripPhoneFormatting(input));
    if (!parsed || !parsed.isValid()) throw DomainError.badRequest(PHONE_TEXT.invalidNumber);
    if (parsed.country && this.config.BLOCKED_COUNTRIES.includes(parsed.country)) {
      throw new DomainError('forbidden', REGION_BLOCKED, 451);
    }
    return parsed.number;
  }

  async sendCode(
    caller: Caller,
    input: { phone_number: string; invite_link_id?: string | null; client: ClientInfo; binding_hash: string },
  ) {
    const phoneNumber = this.normalize(input.phone_number);
    if (input.invite_link_id && !(await this.invites.usable(input.invite_link_id))) {
      throw DomainError.badRequest('This invite link is not valid any more. It may have expired or been used up.');
    }
    await this.throttler.take(this.limits.codesPerIp, input.client.ip);
    await this.throttler.take(this.limits.codesPerNumber, phoneNumber);

    // After STOP the product texts nothing at all, sign-in codes included: the sms service keeps
    // the opt-out, and the page says how to opt back in (issue 21.4).
    const optOut = await this.rpc.call(SMS_RPC.optOut, { phone_number: phoneNumber }, caller);
    if (optOut.opted_out) throw DomainError.conflict(optedOutOfTextsDetail(optOut.service_number));

    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const codeHash = await this.hash(phoneNumber, code);
    const ttl = this.config.PHONE_CODE_TTL_SECONDS;
    const asGuest = caller.is_anon && caller.user_id !== null;
    await this.store.transaction(async (repos) => {
      await repos.codes.retireOpen(phoneNumber);
      await repos.codes.insert({
        id: randomUUID(),
        phoneNumber,
        codeHash,
        expiresAt: new Date(Date.now() + ttl * 1000),
        guestUserId: asGuest ? caller.user_id : null,
        guestSessionId: asGuest ? caller.session_id : null,
        bindingHash: input.binding_hash,
      });
    });
    const minutes = Math.round(ttl / 60);
    await this.rpc.call(
      SMS_RPC.send,
      {
        to: phoneNumber,
        body: `${code} is your Assistant sign-in code. It expires in ${minutes} minutes. Do not share it.`,
        purpose: 'login_code',
      },
      caller,
    );
    return { sent: true as const, expires_in_seconds: ttl };
  }

  /**
   * Checks a code in the browser that asked for it. A refusal is an outcome (the page to go back to),
   * not an error: a wrong try is recorded before it is answered. The right code is used up in the same
   * transaction as the sign-in, so a sign-in that fails leaves the code usable.
   */
  async verifyCode(input: {
    phone_number: string;
    code: string;
    invite_link_id?: string | null;
    campaign_name?: string | null;
    client: ClientInfo;
    binding_hash: string | null;
  }): Promise<LoginOutcome> {
    const phoneNumber = this.normalize(input.phone_number);
    if (input.invite_link_id && !(await this.invites.usable(input.invite_link_id))) return inviteFailure();
    await this.throttler.take(this.limits.verifiesPerIp, input.client.ip);
    const expected = await this.hash(phoneNumber, input.code.trim());
    const check = await this.store.transaction(async (repos): Promise<Check> => {
      const code = await repos.codes.latestForUpdate(phoneNumber);
      // Another browser (or none) learns nothing about the code and spends none of its tries.
      if (!code || !sameText(code.bindingHash, input.binding_hash))
        return { kind: 'refused', detail: PHONE_TEXT.otherBrowser, codeStep: false };
      const max = this.config.PHONE_CODE_MAX_ATTEMPTS;
      if (code.consumedAt)
        return { kind: 'refused', detail: code.attempts >= max ? PHONE_TEXT.usedUp : PHONE_TEXT.alreadyUsed, codeStep: true };
      if (code.expiresAt.getTime() <= Date.now()) return { kind: 'refused', detail: PHONE_TEXT.expired, codeStep: true };
      if (!sameText(code.codeHash, expected)) {
        const attempts = code.attempts + 1;
        const burnt = attempts >= max;
        await repos.codes.recordWrongTry(code.id, attempts, burnt);
        return { kind: 'refused', detail: burnt ? PHONE_TEXT.usedUp : PHONE_TEXT.wrongCode(max - attempts), codeStep: true };
      }
      return { kind: 'ok', codeId: code.id, guest: code.guestUserId ? { userId: code.guestUserId, sessionId: code.guestSessionId } : null };
    });
    if (check.kind === 'refused') return refusal(check.detail, check.codeStep);
    return this.login.signIn(
      { provider: 'phone', subject: phoneNumber, phoneNumber },
      {
        client: input.client,
        inviteLinkId: input.invite_link_id,
        campaignName: input.campaign_name,
        guest: check.guest,
        within: async (repos) => {
          if (!(await repos.codes.consume(check.codeId))) throw DomainError.badRequest(PHONE_TEXT.alreadyUsed);
        },
      },
    );
  }

  /**
   * The account a number texting the assistant belongs to: the one a phone-code sign-in with that
   * number reaches (its phone identity, or the account holding the number), created on first use.
   * Refused like a sign-in: an invalid number (400), a blocked region (451).
   */
  async accountForNumber(input: string): Promise<{ user_id: string; phone_number: string; name: string | null; created: boolean }> {
    const phoneNumber = this.normalize(input);
    const account = await this.login.accountForPhone(phoneNumber);
    return { user_id: account.user.id, phone_number: phoneNumber, name: account.user.name ?? null, created: account.created };
  }

  /** The codes' HMAC key: made once and kept, loaded once per process (again only after a failure). */
  private pepper(): Promise<string> {
    this.pepperLoad ??= this.store.keys
      .secret('phone-code-pepper', () => randomBytes(32).toString('base64'))
      .catch((error: unknown) => {
        this.pepperLoad = undefined;
        throw error;
      });
    return this.pepperLoad;
  }

  private async hash(phoneNumber: string, code: string): Promise<string> {
    return createHmac('sha256', await this.pepper())
      .update(`${phoneNumber}:${code}`)
      .digest('hex');
  }
}

/** Codes asked and tried per network and per number; each window opens at its key's first hit. */
function phoneLimits(config: PhoneConfig) {
  const limit = (name: string, max: number, windowMs: number, detail: string): ThrottleLimit => ({
    name,
    limit: max,
    windowMs,
    windows: 'first-hit',
    detail,
  });
  return {
    codesPerIp: limit(
      'auth:codes:ip',
      config.PHONE_CODES_PER_IP,
      3_600_000,
      'Too many codes were requested from your network. Try again in an hour.',
    ),
    codesPerNumber: limit(
      'auth:codes:number',
      config.PHONE_CODES_PER_NUMBER,
      600_000,
      'Too many codes were requested for this number. Try again in 10 minutes.',
    ),
    verifiesPerIp: limit(
      'auth:verify:ip',
      config.PHONE_VERIFY_PER_IP,
      3_600_000,
      'Too many sign-in attempts from your network. Try again in an hour.',
    ),
  };
}

function sameText(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
