import { Module } from '@nestjs/common';
import { SERVICE_CONFIG, USER_DATA_PURGE_HOOK } from '@app/platform';
import type { ChatConfig } from './config';
import { ChatRepository } from './conversations/chat.repository';
import { ConversationsService } from './conversations/conversations.service';
import { ConversationsHandlers } from './conversations/conversations.handlers';
import { RepliesHandlers } from './replies/replies.handlers';
import { ConversationSearchHandlers } from './conversation-search/conversation-search.handlers';
import { createLlmProvider } from './llm/llm.factory';
import { LLM_PROVIDER } from './llm/llm-provider';
import { AttachmentsService } from './replies/attachments.service';
import { CheckpointStep } from './replies/checkpoint.step';
import { ReplyLeases } from './replies/reply-leases';
import { ReplyWrites } from './replies/reply-writes';
import { DailyLimit } from './replies/daily-limit';
import { InsiderFlagsCache } from './replies/insider-flags.cache';
import { ChatUserData } from './replies/chat-user-data';
import { UserFactsCache } from './replies/user-facts.cache';
import { PersonalizeStep } from './replies/personalize.step';
import { PromptStep } from './replies/prompt.step';
import { RepliesService } from './replies/replies.service';
import { ReplyDrafts } from './replies/reply-drafts';
import { ReplyJobs } from './replies/reply-jobs';
import { ReplyPipeline } from './replies/reply-pipeline';
import { ReplyRecovery } from './replies/reply-recovery';
import { StopRegistry } from './replies/stop-registry';
import { SaveStep } from './replies/save.step';
import { StreamStep } from './replies/stream.step';
import { ToolsStep } from './replies/tools.step';
import { CHAT_TOOLS, type ChatTool } from './tools/chat-tool';
import { ClockTool } from './tools/clock.tool';
import { ToolRegistry } from './tools/tool-registry';
import { ReminderDelivery } from './reminders/reminder-delivery';
import { CancelReminderTool, ListRemindersTool, SetReminderTool, SetTimeZoneTool } from './reminders/reminder.tools';
import { RemindersHandlers } from './reminders/reminders.handlers';
import { RemindersRepository } from './reminders/reminders.repository';
import { RemindersService } from './reminders/reminders.service';
import { PageReader } from './web-search/page-reader';
import { createSearchProvider } from './web-search/search.factory';
import { SEARCH_PROVIDER, type SearchProvider } from './web-search/search-provider';
import { ReadPageTool, SearchWebTool } from './web-search/web.tools';
import { ProjectsHandlers } from './projects/projects.handlers';
import { ProjectsRepository } from './projects/projects.repository';
import { ProjectsService } from './projects/projects.service';
import { OutboundHttp } from './tools/outbound/outbound-http';
import { McpHandlers } from './mcp/mcp.handlers';
import { McpServersRepository } from './mcp/mcp-servers.repository';
import { McpServersService } from './mcp/mcp-servers.service';
import { McpToolSource } from './mcp/mcp-tool-source';
import { OperatorMcpServers } from './mcp/operator-mcp-servers';
import { USER_TOOLS } from './tools/tool-registry';
import { ConversationSearchRepository } from './conversation-search/conversation-search.repository';
import { ConversationSearchService } from './conversation-search/conversation-search.service';
import { TemporaryChatsSweeper } from './temporary/temporary-chats.sweeper';
import { TitleHandlers } from './titles/title.handlers';
import { TitleService } from './titles/title.service';
import { ImportJobs } from './imports/import-jobs';
import { ImportsHandlers } from './imports/imports.handlers';
import { ImportsRepository } from './imports/imports.repository';
import { ImportsService } from './imports/imports.service';

/** Conversations and streamed replies: history, branches, feedback, sharing, the model, titles. */
@Module({
  controllers: [
    ConversationsHandlers,
    RepliesHandlers,
    ConversationSearchHandlers,
    TitleHandlers,
    RemindersHandlers,
    McpHandlers,
    ProjectsHandlers,
    ImportsHandlers,
  ],
  providers: [
    ChatRepository,
    ConversationsService,
    // Projects: conversations grouped, with instructions and files the prompt step gives the model.
    ProjectsRepository,
    ProjectsService,
    // A reply: checked and started (RepliesService, DailyLimit, ReplyDrafts), written (ReplyJobs) through the pipeline's steps.
    RepliesService,
    DailyLimit,
    ReplyDrafts,
    ReplyJobs,
    ReplyPipeline,
    CheckpointStep,
    ReplyLeases,
    ReplyWrites,
    PersonalizeStep,
    InsiderFlagsCache,
    // What a reply's start looks up about a user (reminder settings, whether they have MCP servers),
    // kept until a change announced to every replica; forgotten too when the user's rows move or go.
    UserFactsCache,
    ChatUserData,
    { provide: USER_DATA_PURGE_HOOK, useExisting: ChatUserData },
    PromptStep,
    StreamStep,
    ToolsStep,
    SaveStep,
    // The tool loop's tools: built in (each feature provides its own), and the user's MCP servers'.
    ToolRegistry,
    { provide: ClockTool, useFactory: () => new ClockTool() },
    {
      provide: CHAT_TOOLS,
      useFactory: (...tools: ChatTool[]) => tools,
      inject: [ClockTool, SearchWebTool, ReadPageTool, SetReminderTool, ListRemindersTool, CancelReminderTool, SetTimeZoneTool],
    },
    // Users' own MCP servers: their tools join the built-in ones in every reply.
    McpServersRepository,
    McpServersService,
    OperatorMcpServers,
    { provide: USER_TOOLS, useClass: McpToolSource },
    // Web search: the engine (none unless configured), and pages read through the outbound guard.
    OutboundHttp,
    // (An object around the engine, which is null when web search is off.)
    { provide: SEARCH_PROVIDER, useFactory: (config: ChatConfig) => ({ engine: createSearchProvider(config) }), inject: [SERVICE_CONFIG] },
    {
      provide: SearchWebTool,
      useFactory: (search: { engine: SearchProvider | null }, config: ChatConfig) =>
        new SearchWebTool(search.engine, config.WEB_SEARCH_RESULTS),
      inject: [SEARCH_PROVIDER, SERVICE_CONFIG],
    },
    {
      provide: ReadPageTool,
      useFactory: (search: { engine: SearchProvider | null }, outbound: OutboundHttp, config: ChatConfig) =>
        new ReadPageTool(
          search.engine
            ? new PageReader(outbound, {
                maxBytes: config.WEB_PAGE_MAX_BYTES,
                timeoutMs: config.WEB_PAGE_TIMEOUT_MS,
                maxChars: config.WEB_PAGE_MAX_CHARS,
              })
            : null,
        ),
      inject: [SEARCH_PROVIDER, OutboundHttp, SERVICE_CONFIG],
    },
    // Reminders: kept here, delivered at their time (in the portal, and by text through the sms service).
    RemindersRepository,
    RemindersService,
    ReminderDelivery,
    SetReminderTool,
    ListRemindersTool,
    CancelReminderTool,
    SetTimeZoneTool,
    AttachmentsService,
    StopRegistry,
    ReplyRecovery,
    TitleService,
    ConversationSearchRepository,
    ConversationSearchService,
    TemporaryChatsSweeper,
    // Imports of ChatGPT and Claude history: started and followed (ImportsService), run in the background (ImportJobs).
    ImportsRepository,
    ImportsService,
    ImportJobs,
    { provide: LLM_PROVIDER, useFactory: (config: ChatConfig) => createLlmProvider(config), inject: [SERVICE_CONFIG] },
  ],
  exports: [USER_DATA_PURGE_HOOK],
})
export class ChatModule {}
