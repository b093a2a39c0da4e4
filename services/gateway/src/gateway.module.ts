import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppLogger, BUS, KEY_VALUE_STORE, RUNTIME_ENV, RpcClient, Throttler, type Runtime } from '@app/platform';
import { AccountController } from './account/account.controller';
import { DevSmsController } from './account/dev-sms.controller';
import { AuthController } from './auth/auth.controller';
import { ChatController } from './chat/chat.controller';
import { AuthGuard } from './auth/auth.guard';
import { GoogleRedirectController } from './auth/google-redirect.controller';
import { TokenVerifier } from './auth/token-verifier';
import type { GatewayConfig } from './config';
import { DocsController } from './docs/docs.controller';
import { FilesController } from './files/files.controller';
import { ImportsController } from './imports/imports.controller';
import { HealthController } from './health/health.controller';
import { ReadinessService } from './health/readiness.service';
import { GatewayLifecycle } from './health/lifecycle';
import { RpcRoutesController } from './http/rpc-routes.controller';
import { DevPhoneController } from './sms/dev-phone.controller';
import { SmsController } from './sms/sms.controller';
import { GATEWAY_CONFIG } from './tokens';
import { TtsController } from './tts/tts.controller';
import { BuildInfo } from './version/build-info';
import { VersionController } from './version/version.controller';

/**
 * The routes the gateway serves, each declared once in the contracts (API): the plain proxies to
 * one RPC from their declaration alone, the others by a handler marked @Route(declaration).
 */
export const GATEWAY_CONTROLLERS = [
  HealthController,
  VersionController,
  DocsController,
  RpcRoutesController,
  AuthController,
  ChatController,
  GoogleRedirectController,
  AccountController,
  DevSmsController,
  FilesController,
  ImportsController,
  SmsController,
  DevPhoneController,
  TtsController,
];

/** The HTTP edge: controllers translate HTTP to RPC calls and nothing more. */
@Module({})
export class GatewayModule {
  static forRoot(runtime: Runtime, config: GatewayConfig, logger: AppLogger, extraModules: Type<unknown>[] = []): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      imports: extraModules,
      controllers: GATEWAY_CONTROLLERS,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: RUNTIME_ENV, useValue: runtime.env },
        TokenVerifier,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: BUS, useValue: runtime.bus },
        { provide: KEY_VALUE_STORE, useValue: runtime.kv },
        Throttler,
        { provide: AppLogger, useValue: logger },
        { provide: RpcClient, useValue: RpcClient.forRuntime(runtime) },
        { provide: BuildInfo, useValue: new BuildInfo(config.GIT_COMMIT) },
        ReadinessService,
        GatewayLifecycle,
      ],
      exports: [GATEWAY_CONFIG, BUS, KEY_VALUE_STORE, AppLogger, RpcClient],
    };
  }
}
