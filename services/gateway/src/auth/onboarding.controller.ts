import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { AUTH_RPC, OnboardingAgeBodySchema, OnboardingProfileBodySchema } from '@app/contracts/auth';
import { RpcClient } from '@app/platform';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../http/request-context';
import { ZodPipe } from '../http/zod-validation';

/** Onboarding: age of majority, name, done (new-user -> onboarding -> confirm-memories -> done). */
@Controller('api/v1/onboarding')
export class OnboardingController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('age')
  @HttpCode(200)
  age(@Body(new ZodPipe(OnboardingAgeBodySchema)) body: { birth_date: string }, @Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.onboardingAge, body, callerOf(request));
  }

  @Post('profile')
  @HttpCode(200)
  profile(@Body(new ZodPipe(OnboardingProfileBodySchema)) body: { name: string }, @Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.onboardingProfile, body, callerOf(request));
  }

  @Post('done')
  @HttpCode(200)
  done(@Req() request: FastifyRequest) {
    return this.rpc.call(AUTH_RPC.onboardingDone, {}, callerOf(request));
  }
}
