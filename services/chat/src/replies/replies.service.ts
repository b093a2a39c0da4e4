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
 * conversation and messages, their files, the daily limit; a new message's conversation and the
 * message it follows in the statement that stores it), the rows are stored (ReplyDrafts),
 * `user_message` is sent, and the reply is written by ReplyJobs through the pipeline
 * (reply-pipeline.ts), whether or not anyone still listens.
 */
@Injectable()
export class RepliesService {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'findConversation' | 'findMessage'>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'verify'>,
    @Inject(DailyLimit) private readonly limit: Pick<DailyLimit, 'take' | 'giveBack'>,
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
      const now = new Date();
      let files: FileReference[];
      try {
        files = input.files?.length ? await this.attachments.verify(caller, input.files) : [];
        await this.limit.take(caller, now);
      } catch (error) {
        // A conversation or a message that is not the caller's is refused first (404), as ever.
        await this.targetOf(owner, input);
        throw error;
      }
      // One statement: the conversation looked up, the message and its reply stored, the history read.
      const draft = await this.drafts.withMessage(owner, input.chat_id, {
        content: input.content,
        previousId: input.previous_message_id,
        files,
      });
      if (draft.missing) {
        // Nothing was stored: the message is not counted.
        await this.limit.giveBack(caller, now);
        throw DomainError.notFound(draft.missing === 'conversation' ? CONVERSATION_NOT_FOUND : MESSAGE_NOT_FOUND);
      }
      const { conversation, userMessage, reply, choice, provider, history } = draft;
      // The memories are looked for while the user message is sent and the tools are listed.
      const personalized = this.personalize.look(caller, conversation, input.content);
      emit({ event: 'user_message', data: toMessageView(userMessage) });
      await this.jobs.write({ caller, conversation, emit, personalized, userMessage, reply, choice, provider, history });
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

  /**
   * Throws the 404 a new message to `chat_id` after `previous_message_id` gets when either is not the
   * caller's (the checks the start's statement makes, asked for when a refusal came before it).
   */
  private async targetOf(owner: string, input: { chat_id: string; previous_message_id?: string | null }): Promise<void> {
    const conversation = await this.conversationOf(owner, input.chat_id);
    if (!input.previous_message_id) return;
    const previous: MessageEntity | null = await this.repo.findMessage(owner, input.previous_message_id);
    if (!previous || previous.chatId !== conversation.id) throw DomainError.notFound(MESSAGE_NOT_FOUND);
  }
}

/** Emits events as the job produces them; the job runs to its end whoever listens. */
function replyStream(job: (emit: Emit) => Promise<void>): Observable<ReplyEvent> {
  return observeJob<ReplyEvent>((emit) => job(emit));
}
