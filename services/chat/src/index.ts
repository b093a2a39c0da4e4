import type { ServiceDefinition } from '@app/platform';
import { ChatModule } from './chat.module';
import { chatEnvSchema } from './config';
import { ConversationEntity } from './conversations/conversation.entity';
import { MessageEntity } from './conversations/message.entity';
import { chatMigrations } from './migrations';
import { ProjectEntity } from './projects/project.entity';
import { ShareEntity } from './conversations/share.entity';

export const chatService: ServiceDefinition = {
  name: 'chat',
  module: ChatModule,
  config: chatEnvSchema,
  entities: [ProjectEntity, ConversationEntity, MessageEntity, ShareEntity],
  migrations: chatMigrations,
  // Projects, then conversations: their messages and shares go with them on deletion (ON DELETE
  // CASCADE). A conversation's project_id says which project it is in.
  userData: {
    tables: [
      { table: 'project', userColumn: 'user_id' },
      { table: 'conversation', userColumn: 'user_id', omitFromExport: ['search'] },
      { table: 'message', userColumn: 'user_id', omitFromExport: ['search'] },
      { table: 'share', userColumn: 'user_id' },
      { table: 'reminder', userColumn: 'user_id' },
      // One time zone per person: an account keeps its own over a guest's.
      { table: 'reminder_setting', userColumn: 'user_id', onMerge: 'keep' },
      // Tokens stay sealed in the export.
      { table: 'mcp_server', userColumn: 'user_id' },
      // Imports of ChatGPT and Claude history: each job's summary, and which conversations came from which export.
      { table: 'import_job', userColumn: 'user_id' },
      // (A guest's keys are dropped when it signs in to an account: moving them could clash with the account's own.)
      { table: 'imported_conversation', userColumn: 'user_id', onMerge: 'keep' },
    ],
    exportNotes: {
      temporary_chats: [
        {
          kept: false,
          note: 'Temporary chats are not kept: each is deleted when you leave it, or 24 hours after it began at the latest, and nothing in it is remembered. One still open when this export was made is in conversation (expires_at set).',
        },
      ],
    },
  },
};
