import { Module } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from './config';
import { ChatRepository } from './conversations/chat.repository';
import { ConversationsService } from './conversations/conversations.service';
import { AttachmentsService } from './generation/attachments.service';
import { GenerationService } from './generation/generation.service';
import { StopRegistry } from './generation/stop-registry';
import { ChatHandlers } from './handlers/chat.handlers';
import { createLlmProvider } from './llm/llm.factory';
import { LLM_PROVIDER } from './llm/llm-provider';

/** Conversations and streamed replies: history, branches, feedback, sharing, the model. */
@Module({
  controllers: [ChatHandlers],
  providers: [
    ChatRepository,
    ConversationsService,
    GenerationService,
    AttachmentsService,
    StopRegistry,
    { provide: LLM_PROVIDER, useFactory: (config: ChatConfig) => createLlmProvider(config), inject: [SERVICE_CONFIG] },
  ],
})
export class ChatModule {}
