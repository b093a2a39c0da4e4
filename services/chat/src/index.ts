import type { ServiceDefinition } from '@app/platform';
import { ChatModule } from './chat.module';
import { chatEnvSchema } from './config';
import { IMPORT_STOPPED_ON_MERGE } from './imports/imports.repository';
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
      // Tokens stay sealed in the export. A guest's server named like one of the account's is dropped (one name per user).
      { table: 'mcp_server', userColumn: 'user_id', mergeKey: ['lower(name)'] },
      // Imports of ChatGPT and Claude history: each job's summary, and which conversations came from
      // which export. One import under way per user: a guest's is stopped when the account has one.
      { table: 'import_job', userColumn: 'user_id', beforeMerge: [IMPORT_STOPPED_ON_MERGE] },
      // A guest's keys move with its conversations, but for an export the account imported too (its own key stays).
      { table: 'imported_conversation', userColumn: 'user_id', mergeKey: ['source', 'source_id'] },
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
