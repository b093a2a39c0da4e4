import { Inject, Injectable } from '@nestjs/common';
import { SENDER_USER, type FileReference } from '@app/contracts/chat';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';
import { activeHistory } from '../conversations/views';
import type { MessageEntity } from '../conversations/message.entity';
import { ProjectsRepository } from '../projects/projects.repository';
import { AttachmentsService } from './attachments.service';
import type { ReplyContext } from './reply-context';
import { HISTORY_UNREADABLE, StorageFailure } from './reply-failure';

/**
 * Step 2: what the model is shown. The active history (read by the start's statement with a new
 * message, else here): the branch that ends with the message being
 * answered, walked back through `previous_message_id` (other branches left out), without hidden
 * messages or empty replies, its last CHAT_CONTEXT_MESSAGES; the files of its last messages (images
 * as images, documents as text); and instructions with the user's memories. In a project's
 * conversation, the project's instructions (a delimited section of the instructions) and its files
 * (given with the message being answered, before that message's own).
 */
@Injectable()
export class PromptStep {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'chatMessages'>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'forModel'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_CONTEXT_MESSAGES' | 'CHAT_EXPERT_NAME'>,
    @Inject(ProjectsRepository) private readonly projects: Pick<ProjectsRepository, 'promptOf'>,
  ) {}

  /** The active history and its files: what the prompt needs besides the memories (the pipeline loads it while personalizing). */
  async load(ctx: Pick<ReplyContext, 'caller' | 'conversation' | 'userMessage' | 'history'>): Promise<LoadedHistory> {
    const history = activeHistory(ctx.history ?? (await this.messagesOf(ctx.conversation.id)), ctx.userMessage.id)
      .filter((m) => !m.hidden && (m.sender === SENDER_USER || m.content))
      .slice(-this.config.CHAT_CONTEXT_MESSAGES);
    const userTurns = history.filter((m) => m.sender === SENDER_USER);
    const [shown, project] = await Promise.all([
      this.attachments.forModel(
        ctx.caller,
        userTurns.map((m) => ({ id: m.id, files: filesOf(m) })),
      ),
      this.projectOf(ctx),
    ]);
    if (project?.attachments.length) {
      // The project's files go with the message being answered, so the model has them on every reply.
      const answered = ctx.userMessage.id;
      shown.set(answered, [...project.attachments, ...(shown.get(answered) ?? [])]);
    }
    return { history, shown, project: project && { name: project.name, instructions: project.instructions } };
  }

  async run(ctx: ReplyContext, loading: Promise<LoadedHistory> = this.load(ctx)): Promise<void> {
    const { history, shown, project } = await loading;
    ctx.prompt = {
      system: instructions(
        this.config.CHAT_EXPERT_NAME,
        ctx.memories.map((m) => m.text),
        new Date(),
        project ?? undefined,
      ),
      turns: history.map((m) => ({
        role: m.sender === SENDER_USER ? 'user' : 'assistant',
        content: m.content,
        attachments: shown.get(m.id),
      })),
    };
  }

  /** The project of the conversation, if it is in one: its instructions, and its files as the model sees them. */
  private async projectOf(ctx: Pick<ReplyContext, 'caller' | 'conversation'>) {
    const projectId = ctx.conversation.projectId;
    if (!projectId) return null;
    let project: Awaited<ReturnType<ProjectsRepository['promptOf']>>;
    try {
      project = await this.projects.promptOf(ctx.conversation.userId, projectId);
    } catch (error) {
      throw new StorageFailure(HISTORY_UNREADABLE, { cause: error });
    }
    if (!project) return null;
    const files = project.files.length
      ? ((await this.attachments.forModel(ctx.caller, [{ id: 'project', files: project.files }])).get('project') ?? [])
      : [];
    return { name: project.name, instructions: project.instructions, attachments: files };
  }

  private async messagesOf(chatId: string): Promise<MessageEntity[]> {
    try {
      return await this.repo.chatMessages(chatId);
    } catch (error) {
      throw new StorageFailure(HISTORY_UNREADABLE, { cause: error });
    }
  }
}

export interface LoadedHistory {
  history: MessageEntity[];
  shown: Awaited<ReturnType<AttachmentsService['forModel']>>;
  /** The conversation's project, when it is in one. */
  project?: ProjectPrompt | null;
}

export interface ProjectPrompt {
  name: string;
  instructions: string;
}

/**
 * The model's instructions: who it is, the date, what it knows about the user and, in a project's
 * conversation, the project's own instructions (between markers, so they read as the user's words
 * for this project, not as the product's).
 */
export function instructions(expertName: string, memories: string[], today: Date, project?: ProjectPrompt): string {
  const lines = [
    `You are ${expertName}, a personal assistant. Answer helpfully and concisely, in the user's language. Use Markdown.`,
    `Today is ${today.toISOString().slice(0, 10)}.`,
  ];
  if (memories.length)
    lines.push('What you know about the user (use it when it helps, never recite it unasked):', ...memories.map((m) => `- ${m}`));
  if (project) {
    lines.push(`This conversation is in the user's project "${project.name}". Its files, if any, come with the user's latest message.`);
    if (project.instructions.trim())
      lines.push(
        "The project's instructions, written by the user for every conversation of the project (follow them):",
        '<project_instructions>',
        project.instructions.trim(),
        '</project_instructions>',
      );
  }
  return lines.join('\n');
}

function filesOf(message: MessageEntity): FileReference[] {
  const files = message.metadata.files;
  return Array.isArray(files) ? (files as FileReference[]) : [];
}
