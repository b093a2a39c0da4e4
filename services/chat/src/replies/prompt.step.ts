import { Inject, Injectable } from '@nestjs/common';
import { SENDER_USER, type FileReference } from '@app/contracts/chat';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository, type ChatStore } from '../conversations/chat.repository';
import { activeHistory } from '../conversations/views';
import type { MessageEntity } from '../messages/message.entity';
import { AttachmentsService } from './attachments.service';
import type { ReplyContext } from './reply-context';
import { HISTORY_UNREADABLE, StorageFailure } from './reply-failure';

/**
 * Step 2: what the model is shown. The active history: the branch that ends with the message being
 * answered, walked back through `previous_message_id` (other branches left out), without hidden
 * messages or empty replies, its last CHAT_CONTEXT_MESSAGES; the files of its last messages (images
 * as images, documents as text); and instructions with the user's memories.
 */
@Injectable()
export class PromptStep {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatStore, 'chatMessages'>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'forModel'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_CONTEXT_MESSAGES' | 'CHAT_EXPERT_NAME'>,
  ) {}

  /** The active history and its files: what the prompt needs besides the memories (the pipeline loads it while personalising). */
  async load(ctx: Pick<ReplyContext, 'caller' | 'conversation' | 'userMessage'>): Promise<LoadedHistory> {
    const history = activeHistory(await this.messagesOf(ctx.conversation.id), ctx.userMessage.id)
      .filter((m) => !m.hidden && (m.sender === SENDER_USER || m.content))
      .slice(-this.config.CHAT_CONTEXT_MESSAGES);
    const userTurns = history.filter((m) => m.sender === SENDER_USER);
    const shown = await this.attachments.forModel(
      ctx.caller,
      userTurns.map((m) => ({ id: m.id, files: filesOf(m) })),
    );
    return { history, shown };
  }

  async run(ctx: ReplyContext, loading: Promise<LoadedHistory> = this.load(ctx)): Promise<void> {
    const { history, shown } = await loading;
    ctx.prompt = {
      system: instructions(
        this.config.CHAT_EXPERT_NAME,
        ctx.memories.map((m) => m.text),
        new Date(),
      ),
      turns: history.map((m) => ({
        role: m.sender === SENDER_USER ? 'user' : 'assistant',
        content: m.content,
        attachments: shown.get(m.id),
      })),
    };
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
}

/** The model's instructions: who it is, the date, and what it knows about the user. */
export function instructions(expertName: string, memories: string[], today: Date): string {
  const lines = [
    `You are ${expertName}, a personal assistant. Answer helpfully and concisely, in the user's language. Use Markdown.`,
    `Today is ${today.toISOString().slice(0, 10)}.`,
  ];
  if (memories.length)
    lines.push('What you know about the user (use it when it helps, never recite it unasked):', ...memories.map((m) => `- ${m}`));
  return lines.join('\n');
}

function filesOf(message: MessageEntity): FileReference[] {
  const files = message.metadata.files;
  return Array.isArray(files) ? (files as FileReference[]) : [];
}
