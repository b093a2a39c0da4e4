import { Controller, Header } from '@nestjs/common';
import { API, type VersionResponse } from '@app/contracts/gateway';
import { Route } from '../http/route';
import { BuildInfo } from './build-info';

@Controller()
export class VersionController {
  constructor(private readonly build: BuildInfo) {}

  @Route(API.version.commit)
  @Header('cache-control', 'no-store, no-cache, must-revalidate, max-age=0')
  @Header('pragma', 'no-cache')
  @Header('expires', '0')
  commit(): VersionResponse {
    return { commit: this.build.commit };
  }
}
