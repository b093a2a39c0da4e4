import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from './config';
import { ChatRepository } from './conversations/chat.repository';
import { ConversationsService } from './conversations/conversations.service';
import { ChatHandlers } from './handlers/chat.handlers';
import { createLlmProvider } from './llm/llm.factory';
import { LLM_PROVIDER } from './llm/llm-provider';
import { AttachmentsService } from './replies/attachments.service';
import { CheckpointStep } from './replies/checkpoint.step';
import { ReplyLeases } from './replies/reply-leases';
import { DailyLimit } from './replies/daily-limit';
import { InsiderFlagsCache } from './replies/insider-flags.cache';
import { PersonaliseStep } from './replies/personalise.step';
import { PromptStep } from './replies/prompt.step';
import { RepliesService } from './replies/replies.service';
import { ReplyDrafts } from './replies/reply-drafts';
import { ReplyJobs } from './replies/reply-jobs';
import { ReplyPipeline } from './replies/reply-pipeline';
import { ReplyRecovery } from './replies/reply-recovery';
import { StopRegistry } from './replies/stop-registry';
import { StoreStep } from './replies/store.step';
import { StreamStep } from './replies/stream.step';
import { ConversationSearchRepository } from './search/conversation-search.repository';
import { ConversationSearchService } from './search/conversation-search.service';
import { TemporaryChatsSweeper } from './temporary/temporary-chats.sweeper';
import { TitleHandlers } from './titles/title.handlers';
import { TitleService } from './titles/title.service';

/** Conversations and streamed replies: history, branches, feedback, sharing, the model, titles. */
@Module({
  controllers: [ChatHandlers, TitleHandlers],
  providers: [
    ChatRepository,
    ConversationsService,
    // A reply: checked and started (RepliesService, DailyLimit, ReplyDrafts), written (ReplyJobs) through the pipeline's steps.
    RepliesService,
    DailyLimit,
    ReplyDrafts,
    ReplyJobs,
    ReplyPipeline,
    CheckpointStep,
    ReplyLeases,
    PersonaliseStep,
    InsiderFlagsCache,
    PromptStep,
    StreamStep,
    StoreStep,
    AttachmentsService,
    StopRegistry,
    ReplyRecovery,
    TitleService,
    ConversationSearchRepository,
    ConversationSearchService,
    TemporaryChatsSweeper,
    { provide: LLM_PROVIDER, useFactory: (config: ChatConfig) => createLlmProvider(config), inject: [SERVICE_CONFIG] },
  ],
})
export class ChatModule {}
