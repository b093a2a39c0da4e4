import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../../config';
import { GuardedFetch } from './guarded-fetch';

/** The chat service's guarded outbound HTTP (pages the model reads, users' MCP servers), with the operator's allowed private hosts. */
@Injectable()
export class OutboundHttp extends GuardedFetch implements OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: Pick<ChatConfig, 'TOOLS_PRIVATE_HOSTS'>) {
    super({ allowedPrivateHosts: config.TOOLS_PRIVATE_HOSTS });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }
}
