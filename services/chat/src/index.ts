import type { ServiceDefinition } from '@app/platform';
import { ChatModule } from './chat.module';
import { chatMigrations } from './migrations';

export const chatService: ServiceDefinition = {
  name: 'chat',
  module: ChatModule,
  entities: [],
  migrations: chatMigrations,
};
