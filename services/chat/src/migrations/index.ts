import type { MigrationInterface } from 'typeorm';
import { CreateChat1763900000100 } from './1763900000100-create-chat';
import { ReplyLease1765600000100 } from './1765600000100-reply-lease';
import { SharedConversation1766100000100 } from './1766100000100-shared-conversation';
import { ConversationSearch1766700000100 } from './1766700000100-conversation-search';
import { TemporaryConversation1766700000200 } from './1766700000200-temporary-conversation';

/** The chat service's migrations, oldest first. */
export const chatMigrations: (new () => MigrationInterface)[] = [
  CreateChat1763900000100,
  ReplyLease1765600000100,
  SharedConversation1766100000100,
  ConversationSearch1766700000100,
  TemporaryConversation1766700000200,
];
