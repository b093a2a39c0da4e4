import { Public } from '@app/platform';
import { Controller, Get, Header } from '@nestjs/common';
import type { VersionResponse } from '@app/contracts/gateway';
import { BuildInfo } from './build-info';

@Public()
@Controller('api/v1/version')
export class VersionController {
  constructor(private readonly build: BuildInfo) {}

  @Get('commit')
  @Header('cache-control', 'no-store, no-cache, must-revalidate, max-age=0')
  @Header('pragma', 'no-cache')
  @Header('expires', '0')
  commit(): VersionResponse {
    return { commit: this.build.commit };
  }
}
