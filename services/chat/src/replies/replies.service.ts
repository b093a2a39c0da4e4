import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { SENDER_USER, type FileReference, type ReplyEvent } from '@app/contracts/chat';
import { DomainError, observeJob } from '@app/platform';
import type { Observable } from 'rxjs';
import { ChatRepository } from '../conversations/chat.repository';
import type { ConversationEntity } from '../conversations/conversation.entity';
import { CONVERSATION_NOT_FOUND, MESSAGE_NOT_FOUND, ownerOf } from '../conversations/conversations.service';
import { toMessageView } from '../conversations/views';
import type { MessageEntity } from '../conversations/message.entity';
import { AttachmentsService } from './attachments.service';
import { DailyLimit } from './daily-limit';
import { PersonalizeStep } from './personalize.step';
import type { Emit } from './reply-context';
import { ReplyDrafts } from './reply-drafts';
import { ReplyJobs } from './reply-jobs';

export const NOTHING_TO_ANSWER = 'There is no message to answer again.';

/**
 * Sending a message, answering one again, stopping a reply. The request is checked (the caller's
 * conversation and messages, their files, the daily limit), the rows are stored (ReplyDrafts),
 * `user_message` is sent, and the reply is written by ReplyJobs through the pipeline
 * (reply-pipeline.ts), whether or not anyone still listens.
 */
@Injectable()
export class RepliesService {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'findConversation' | 'findMessage'>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'verify'>,
    @Inject(DailyLimit) private readonly limit: Pick<DailyLimit, 'take'>,
    @Inject(ReplyDrafts) private readonly drafts: Pick<ReplyDrafts, 'withMessage' | 'again'>,
    @Inject(ReplyJobs) private readonly jobs: Pick<ReplyJobs, 'write' | 'stop'>,
    @Inject(PersonalizeStep) private readonly personalize: Pick<PersonalizeStep, 'look'>,
  ) {}

  /** A new message (appended to the active branch, or a new branch after `previous_message_id`) and its reply. */
  send(
    caller: Caller,
    input: { chat_id: string; content: string; previous_message_id?: string | null; files?: FileReference[] },
  ): Observable<ReplyEvent> {
    return replyStream(async (emit) => {
      const owner = ownerOf(caller);
      const conversation = await this.conversationOf(owner, input.chat_id);
      const previousId =
        input.previous_message_id === undefined
          ? conversation.lastActiveMessageId
          : await this.previousIn(owner, conversation, input.previous_message_id);
      const files = input.files?.length ? await this.attachments.verify(caller, input.files) : [];
      await this.limit.take(caller);
      // The memories are looked for while the message is stored (after the limit: a refused request costs no search).
      const personalized = this.personalize.look(caller, conversation, input.content);
      const draft = await this.drafts.withMessage(conversation, { content: input.content, previousId, files });
      emit({ event: 'user_message', data: toMessageView(draft.userMessage) });
      await this.jobs.write({ caller, conversation, emit, personalized, ...draft });
    });
  }

  /** Another reply to a user message (given it, or one of its replies), as a new branch beside the others. */
  regenerate(caller: Caller, input: { message_id: string }): Observable<ReplyEvent> {
    return replyStream(async (emit) => {
      const owner = ownerOf(caller);
      const message = await this.repo.findMessage(owner, input.message_id);
      if (!message) throw DomainError.notFound(MESSAGE_NOT_FOUND);
      const userMessage =
        message.sender === SENDER_USER
          ? message
          : message.previousMessageId
            ? await this.repo.findMessage(owner, message.previousMessageId)
            : null;
      if (!userMessage || userMessage.sender !== SENDER_USER) throw DomainError.badRequest(NOTHING_TO_ANSWER);
      const conversation = await this.conversationOf(owner, userMessage.chatId);
      await this.limit.take(caller);
      const draft = await this.drafts.again(conversation, userMessage);
      emit({ event: 'user_message', data: toMessageView(draft.userMessage) });
      await this.jobs.write({ caller, conversation, emit, ...draft });
    });
  }

  /** Stops the reply to a user message of the caller's, wherever it is being written ("asked to stop"). */
  async stop(caller: Caller, input: { message_id: string }): Promise<{ stopped: boolean }> {
    const message = await this.repo.findMessage(ownerOf(caller), input.message_id);
    if (!message) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    this.jobs.stop(message.id);
    return { stopped: true };
  }

  private async conversationOf(owner: string, chatId: string): Promise<ConversationEntity> {
    const conversation = await this.repo.findConversation(owner, chatId);
    if (!conversation) throw DomainError.notFound(CONVERSATION_NOT_FOUND);
    return conversation;
  }

  /** The message a new one follows: one of this conversation's, or null (a new first message). */
  private async previousIn(owner: string, conversation: ConversationEntity, previousId: string | null): Promise<string | null> {
    if (!previousId) return null;
    const previous: MessageEntity | null = await this.repo.findMessage(owner, previousId);
    if (!previous || previous.chatId !== conversation.id) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    return previous.id;
  }
}

/** Emits events as the job produces them; the job runs to its end whoever listens. */
function replyStream(job: (emit: Emit) => Promise<void>): Observable<ReplyEvent> {
  return observeJob<ReplyEvent>((emit) => job(emit));
}
