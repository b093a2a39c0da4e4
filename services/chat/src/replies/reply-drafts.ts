import { Inject, Injectable } from '@nestjs/common';
import { SENDER_ASSISTANT, SENDER_USER, type FileReference } from '@app/contracts/chat';
import { SERVICE_CONFIG } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';
import type { ConversationEntity } from '../conversations/conversation.entity';
import { LLM_PROVIDER, type LlmProvider, type ProviderDescriptor } from '../llm/llm-provider';
import { chooseModel, type ModelChoice } from '../llm/model-choice';
import type { MessageEntity } from '../conversations/message.entity';
import { replyMetadata } from './reply-context';

/** A reply about to be written: the message it answers, its row (`streaming`), the model chosen. */
export interface ReplyDraft {
  userMessage: MessageEntity;
  reply: MessageEntity;
  choice: ModelChoice;
  provider: ProviderDescriptor;
  /** The conversation's history as the start read it (the new message last), when it did. */
  history?: MessageEntity[];
}

/**
 * The rows a reply starts with, stored before anything else: the reply's row exists from its first
 * moment (`streaming`, leased to this process), with the user's new message in the same
 * transaction, so there is no instant at which a message has no reply.
 */
@Injectable()
export class ReplyDrafts {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'newMessage' | 'addMessageWithReply' | 'startReply'>,
    @Inject(LLM_PROVIDER) private readonly llm: Pick<LlmProvider, 'describe'>,
    @Inject(SERVICE_CONFIG) private readonly config: ChatConfig,
  ) {}

  /**
   * A new user message in the owner's conversation `chatId`, after `previousId` (undefined: the
   * conversation's active message; null: a new first message, a branch from the root), and its
   * reply, with the conversation and its history: one statement (ChatRepository.addMessageWithReply).
   * `missing` when the conversation is not the owner's or `previousId` is not one of its messages.
   */
  async withMessage(
    owner: string,
    chatId: string,
    message: { content: string; previousId?: string | null; files: FileReference[] },
  ): Promise<{ missing: 'conversation' | 'previous message' } | (ReplyDraft & { missing?: undefined; conversation: ConversationEntity })> {
    const userMessage = this.repo.newMessage({
      id: randomUUID(),
      chatId,
      userId: owner,
      sender: SENDER_USER,
      authorUserId: owner,
      expertId: null,
      expertName: null,
      content: message.content,
      previousMessageId: message.previousId ?? null,
      metadata: { files: message.files },
    });
    const { choice, provider, reply } = this.draft({ id: chatId, userId: owner }, userMessage);
    const stored = await this.repo.addMessageWithReply(userMessage, reply, this.config.CHAT_REPLY_LEASE_MS, {
      follow: message.previousId === undefined,
    });
    if (stored.missing) return { missing: stored.missing };
    return {
      conversation: stored.conversation,
      userMessage: stored.message,
      reply: stored.reply,
      history: stored.history,
      choice,
      provider,
    };
  }

  /** Another reply to a stored user message (a sibling of its other replies). */
  async again(conversation: ConversationEntity, userMessage: MessageEntity): Promise<ReplyDraft> {
    const { choice, provider, reply } = this.draft(conversation, userMessage);
    return { userMessage, reply: await this.repo.startReply(reply, this.config.CHAT_REPLY_LEASE_MS), choice, provider };
  }

  private draft(conversation: Pick<ConversationEntity, 'id' | 'userId'>, userMessage: MessageEntity) {
    const provider = this.llm.describe();
    const choice = chooseModel(this.config, userMessage.content, provider);
    const reply = this.repo.newMessage({
      id: randomUUID(),
      chatId: conversation.id,
      userId: conversation.userId,
      sender: SENDER_ASSISTANT,
      authorUserId: null,
      expertId: this.config.CHAT_EXPERT_ID,
      expertName: this.config.CHAT_EXPERT_NAME,
      content: '',
      previousMessageId: userMessage.id,
      metadata: replyMetadata({
        choice,
        provider,
        served: { requestId: null, model: null },
        memories: [],
        images: [],
        rewrittenQuery: null,
        reasoning: '',
      }),
    });
    return { choice, provider, reply };
  }
}
