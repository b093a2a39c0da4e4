import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, type PublicOf } from '@app/platform';
import type { ChatConfig } from '../config';
import type { Caller } from '@app/contracts';
import { MESSAGE_PAGE_LIMIT, SENDER_ASSISTANT } from '@app/contracts/chat';
import { DomainError } from '@app/platform';
import { randomBytes, randomUUID } from 'node:crypto';
import { ProjectsRepository } from '../projects/projects.repository';
import { ChatRepository } from './chat.repository';
import { MessageTree } from './message-tree';
import { toConversationView, toMessageView, toSharedMessageView } from './views';

export const CONVERSATION_NOT_FOUND = 'Conversation not found';
export const MESSAGE_NOT_FOUND = 'Message not found';
export const PROJECT_NOT_FOUND = 'Project not found';
export const TEMPORARY_NOT_IN_PROJECT = 'A temporary chat cannot be in a project.';
export const TEMPORARY_NOT_SHAREABLE = 'A temporary chat cannot be shared: it is deleted when it is closed.';
export const BEFORE_OR_THROUGH = 'Give `before` or `through`, not both.';
export const SHARE_NOT_FOUND = 'This shared conversation does not exist or is no longer shared.';

/** The caller's id; every call is about their own conversations. */
export function ownerOf(caller: Caller): string {
  if (!caller.user_id) throw DomainError.unauthorized();
  return caller.user_id;
}

/**
 * Conversations, their messages, feedback and shares. Someone else's conversation, message or
 * share is "not found" (404), never "forbidden", so ids reveal nothing.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @Inject(ChatRepository) private readonly repo: PublicOf<ChatRepository>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_TEMPORARY_CHAT_TTL_SECONDS'>,
    @Inject(ProjectsRepository) private readonly projects: Pick<ProjectsRepository, 'find'>,
  ) {}

  async list(caller: Caller) {
    return (await this.repo.listConversations(ownerOf(caller))).map(toConversationView);
  }

  async get(caller: Caller, chatId: string) {
    const conversation = await this.requireConversation(caller, chatId);
    const messages = await this.repo.chatMessages(conversation.id);
    return { ...toConversationView(conversation), messages: messages.filter((m) => !m.hidden).map(toMessageView) };
  }

  /**
   * A page of a conversation's active branch, oldest first: its newest `limit` messages; with
   * `before`, the `limit` before that message on its branch (its ancestors: an older page); with
   * `through`, the newest of the branch through that message: the active one when it is on it, else
   * where it leads (the newest child at each step). Each message with other versions comes with them and where each leads, for the branch
   * switcher. A `before` or `through` not in the caller's conversation is not found.
   */
  async page(caller: Caller, input: { chat_id: string; before?: string; through?: string; limit: number }) {
    if (input.before && input.through) throw DomainError.badRequest(BEFORE_OR_THROUGH);
    const conversation = await this.requireConversation(caller, input.chat_id);
    // The tree and where the conversation ends as of one moment (a reply stored in between is on both or neither).
    const shape = await this.repo.messageTree(conversation.userId, conversation.id);
    const tree = new MessageTree(shape.nodes);
    const cursor = input.before ?? input.through;
    if (cursor && !tree.has(cursor)) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    const active = tree.activeLeaf(shape.lastActiveMessageId);
    const leaf = input.before ? null : input.through && !tree.leadsTo(input.through, active) ? tree.leafFrom(input.through) : active;
    const { ids, hasMore } = tree.walk(input.before ? tree.parentOf(input.before) : leaf, input.limit);
    // A reply being written where the branch ends: the first to its last message, the user's, or another version of its last reply.
    const answering = leaf ? tree.answeringAt(leaf) : null;
    const messages = await this.repo.messagesIn(conversation.userId, conversation.id, ids);
    return {
      messages: messages.map(toMessageView),
      versions: tree.versionsOf(ids).map((v) => ({
        message_id: v.messageId,
        versions: v.versions.map((version) => ({ message_id: version.messageId, leaf_id: version.leafId })),
      })),
      has_more: hasMore,
      leaf_id: leaf,
      replying: answering && {
        message_id: answering.reply.id,
        previous_message_id: answering.userMessageId,
        content: answering.reply.content,
      },
    };
  }

  /**
   * A new conversation; `shared` (for the sms service's groups only: not an HTTP field) uses and
   * learns no memories; nor does a `temporary` one, which is also unlisted and ends after
   * CHAT_TEMPORARY_CHAT_TTL_SECONDS.
   */
  async create(caller: Caller, title: string | null | undefined, shared = false, temporary = false, projectId: string | null = null) {
    if (projectId && (temporary || shared)) throw DomainError.badRequest(TEMPORARY_NOT_IN_PROJECT);
    if (projectId) await this.requireProject(caller, projectId);
    const conversation = this.repo.newConversation({
      id: randomUUID(),
      userId: ownerOf(caller),
      title: title?.trim() || null,
      isShared: shared,
      expiresAt: temporary ? new Date(Date.now() + this.config.CHAT_TEMPORARY_CHAT_TTL_SECONDS * 1000) : null,
      projectId,
    });
    return toConversationView(await this.repo.createConversation(conversation));
  }

  async update(
    caller: Caller,
    input: { chat_id: string; conversation_title?: string; last_active_message_id?: string; project_id?: string | null },
  ) {
    const conversation = await this.requireConversation(caller, input.chat_id);
    if (input.project_id) {
      await this.requireProject(caller, input.project_id);
      if (conversation.expiresAt !== null || conversation.isShared) throw DomainError.conflict(TEMPORARY_NOT_IN_PROJECT);
    }
    if (input.project_id !== undefined) conversation.projectId = input.project_id;
    if (input.conversation_title !== undefined) conversation.title = input.conversation_title;
    if (input.last_active_message_id !== undefined) {
      const message = await this.repo.findMessage(ownerOf(caller), input.last_active_message_id);
      if (!message || message.chatId !== conversation.id) throw DomainError.notFound(MESSAGE_NOT_FOUND);
      conversation.lastActiveMessageId = message.id;
    }
    return toConversationView(await this.repo.saveConversation(conversation));
  }

  async remove(caller: Caller, chatId: string) {
    if (!(await this.repo.deleteConversation(ownerOf(caller), chatId))) throw DomainError.notFound(CONVERSATION_NOT_FOUND);
    return { deleted: true as const };
  }

  async messages(caller: Caller, chatIds?: string[]) {
    return (await this.repo.visibleMessages(ownerOf(caller), chatIds)).map(toMessageView);
  }

  async feedback(caller: Caller, input: { message_id: string; feedback: 'like' | 'dislike' | null; verbose_feedback?: string | null }) {
    const message = await this.repo.findMessage(ownerOf(caller), input.message_id);
    if (!message) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    if (message.sender !== SENDER_ASSISTANT) throw DomainError.badRequest('Only replies can be liked or disliked.');
    message.feedback = input.feedback;
    if (input.verbose_feedback !== undefined || input.feedback === null) {
      message.metadata = { ...message.metadata, verbose_feedback: input.feedback === null ? null : (input.verbose_feedback ?? null) };
    }
    return toMessageView(await this.repo.saveMessage(message));
  }

  /** A link to a conversation; never to a temporary chat (it is kept for no one, so shown to no one). */
  async share(caller: Caller, chatId: string) {
    const conversation = await this.requireConversation(caller, chatId);
    if (conversation.expiresAt !== null) throw DomainError.conflict(TEMPORARY_NOT_SHAREABLE);
    const share =
      (await this.repo.activeShare(conversation.userId, conversation.id)) ??
      (await this.repo.insertShare({ id: randomBytes(12).toString('base64url'), chatId: conversation.id, userId: conversation.userId }));
    return { share_id: share.id, chat_id: conversation.id, url: `/share/${share.id}`, created_at: share.createdAt.toISOString() };
  }

  async unshare(caller: Caller, chatId: string) {
    const conversation = await this.requireConversation(caller, chatId);
    return { revoked: (await this.repo.revokeShares(conversation.userId, conversation.id)) > 0 };
  }

  /**
   * A page of a shared conversation, for anyone with the link: its active history, read-only,
   * oldest first: the first `limit` messages, or the `limit` after `after` (404 when that is not a
   * message of the branch: the owner switched branches since, say). Only the page's words are read.
   */
  async shared(shareId: string, page: { after?: string; limit: number } = { limit: MESSAGE_PAGE_LIMIT.default }) {
    const { share, conversation, branch } = await this.sharedBranch(shareId);
    const start = page.after === undefined ? 0 : branch.indexOf(page.after) + 1;
    if (start === 0 && page.after !== undefined) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    const ids = branch.slice(start, start + page.limit);
    return {
      share_id: share.id,
      conversation_title: conversation.title,
      messages: (await this.repo.messagesIn(conversation.userId, conversation.id, ids)).map(toSharedMessageView),
      has_more: start + ids.length < branch.length,
      shared_at: share.createdAt.toISOString(),
    };
  }

  /** Whether a shared conversation shows this file (for the files service), and whose it is. */
  async sharedFileAccess(shareId: string, objectId: string) {
    const { conversation, branch } = await this.sharedBranch(shareId);
    if (!(await this.repo.anyHasFile(conversation.userId, conversation.id, branch, objectId))) throw DomainError.notFound('File not found');
    return { owner_user_id: conversation.userId };
  }

  /**
   * What a share shows: its conversation's active branch, as its owner's page reads it (to the last
   * active message, or the newest one when that is unknown), its hidden messages left out; only
   * the branch's words are read, never the other branches'.
   */
  private async sharedBranch(shareId: string) {
    const share = await this.repo.findShare(shareId);
    const conversation = share ? await this.repo.findConversation(share.userId, share.chatId) : null;
    if (!share || !conversation) throw DomainError.notFound(SHARE_NOT_FOUND);
    const shape = await this.repo.messageTree(conversation.userId, conversation.id);
    const tree = new MessageTree(shape.nodes);
    const { ids } = tree.walk(tree.activeLeaf(shape.lastActiveMessageId), Number.POSITIVE_INFINITY);
    return { share, conversation, branch: ids };
  }

  /** For the tts service: the caller's conversation and, when given, a message of it (404 otherwise). */
  async owned(caller: Caller, chatId: string, messageId?: string) {
    const conversation = await this.requireConversation(caller, chatId);
    if (messageId === undefined) return { chat_id: conversation.id, message_id: null };
    if ((await this.repo.chatOfMessage(ownerOf(caller), messageId)) !== conversation.id) throw DomainError.notFound(MESSAGE_NOT_FOUND);
    return { chat_id: conversation.id, message_id: messageId };
  }

  /** One of the caller's projects (someone else's is not found, as their conversations are). */
  private async requireProject(caller: Caller, projectId: string) {
    if (!(await this.projects.find(ownerOf(caller), projectId))) throw DomainError.notFound(PROJECT_NOT_FOUND);
  }

  async requireConversation(caller: Caller, chatId: string) {
    const conversation = await this.repo.findConversation(ownerOf(caller), chatId);
    if (!conversation) throw DomainError.notFound(CONVERSATION_NOT_FOUND);
    return conversation;
  }
}
