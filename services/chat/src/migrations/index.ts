import type { MigrationInterface } from 'typeorm';
import { CreateChat1763900000100 } from './1763900000100-create-chat';
import { ReplyLease1765600000100 } from './1765600000100-reply-lease';
import { SharedConversation1766100000100 } from './1766100000100-shared-conversation';
import { ConversationSearch1766700000100 } from './1766700000100-conversation-search';
import { TemporaryConversation1766700000200 } from './1766700000200-temporary-conversation';
import { Reminders1766800000100 } from './1766800000100-reminders';
import { McpServers1766900000100 } from './1766900000100-mcp-servers';
import { McpOAuth1766900000200 } from './1766900000200-mcp-oauth';
import { Imports1767000000100 } from './1767000000100-imports';
import { Projects1767000000500 } from './1767000000500-projects';
import { ImportCancel1767000000600 } from './1767000000600-import-cancel';
import { ImportHeldFiles1767000000700 } from './1767000000700-import-held-files';

/** The chat service's migrations, oldest first. */
export const chatMigrations: (new () => MigrationInterface)[] = [
  CreateChat1763900000100,
  ReplyLease1765600000100,
  SharedConversation1766100000100,
  ConversationSearch1766700000100,
  TemporaryConversation1766700000200,
  Reminders1766800000100,
  McpServers1766900000100,
  McpOAuth1766900000200,
  Imports1767000000100,
  Projects1767000000500,
  ImportCancel1767000000600,
  ImportHeldFiles1767000000700,
];
