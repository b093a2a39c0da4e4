import type { ServiceDefinition } from '@app/platform';
import { authService } from '@app/service-auth';
import { chatService } from '@app/service-chat';
import { filesService } from '@app/service-files';
import { insiderConfigService } from '@app/service-insider-config';
import { memoryService } from '@app/service-memory';
import { smsService } from '@app/service-sms';
import { ttsService } from '@app/service-tts';

/** Every service behind the gateway. */
export const SERVICES: readonly ServiceDefinition[] = [
  authService,
  chatService,
  memoryService,
  filesService,
  insiderConfigService,
  ttsService,
  smsService,
];
