import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull } from 'typeorm';
import { MessageEntity } from '../messages/message.entity';
import { ShareEntity } from '../shares/share.entity';
import { ConversationEntity } from './conversation.entity';

/** The only place that touches the chat schema. Every read is scoped by the owner. */
@Injectable()
export class ChatRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get conversations() {
    return this.dataSource.getRepository(ConversationEntity);
  }
  private get messages() {
    return this.dataSource.getRepository(MessageEntity);
  }
  private get shares() {
    return this.dataSource.getRepository(ShareEntity);
  }

  listConversations(userId: string): Promise<ConversationEntity[]> {
    return this.conversations
      .createQueryBuilder('c')
      .where('c.user_id = :userId', { userId })
      .orderBy('c.last_message_at', 'DESC', 'NULLS LAST')
      .addOrderBy('c.created_at', 'DESC')
      .getMany();
  }

  findConversation(userId: string, id: string): Promise<ConversationEntity | null> {
    return this.conversations.findOne({ where: { id, userId } });
  }

  saveConversation(conversation: ConversationEntity): Promise<ConversationEntity> {
    return this.conversations.save(conversation);
  }

  newConversation(fields: Pick<ConversationEntity, 'id' | 'userId' | 'title'>): ConversationEntity {
    return this.conversations.create({ ...fields, lastMessageAt: null, lastActiveMessageId: null, isCommercial: false });
  }

  async deleteConversation(userId: string, id: string): Promise<boolean> {
    const result = await this.conversations.delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }

  findMessage(userId: string, id: string): Promise<MessageEntity | null> {
    return this.messages.findOne({ where: { id, userId } });
  }

  chatMessages(chatId: string): Promise<MessageEntity[]> {
    return this.messages.find({ where: { chatId }, order: { createdAt: 'ASC' } });
  }

  visibleMessages(userId: string, chatIds?: string[]): Promise<MessageEntity[]> {
    return this.messages.find({
      where: { userId, hidden: false, ...(chatIds ? { chatId: In(chatIds) } : {}) },
      order: { createdAt: 'ASC' },
    });
  }

  newMessage(fields: Omit<MessageEntity, 'createdAt' | 'feedback' | 'hidden' | 'status'> & Partial<Pick<MessageEntity, 'status'>>): MessageEntity {
    return this.messages.create({ feedback: null, hidden: false, status: 'complete', ...fields });
  }

  saveMessage(message: MessageEntity): Promise<MessageEntity> {
    return this.messages.save(message);
  }

  /** Writes a finished (or cut) reply and moves the conversation to it, in one transaction. */
  async finishReply(reply: MessageEntity, conversationId: string, title: string | null): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.save(MessageEntity, reply);
      await manager.update(
        ConversationEntity,
        { id: conversationId },
        { lastActiveMessageId: reply.id, lastMessageAt: new Date(), ...(title ? { title } : {}) },
      );
    });
  }

  /** A new message and the conversation pointing at it, in one transaction. */
  async addMessage(message: MessageEntity, conversationId: string): Promise<MessageEntity> {
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(MessageEntity, message);
      await manager.update(ConversationEntity, { id: conversationId }, { lastActiveMessageId: saved.id, lastMessageAt: saved.createdAt });
      return saved;
    });
  }

  /** Replies left "streaming" by a process that stopped: they are what was stored, cut short. */
  async markAbandoned(olderThan: Date): Promise<number> {
    const result = await this.messages
      .createQueryBuilder()
      .update()
      .set({ status: 'incomplete', metadata: () => `metadata || '{"incomplete": true}'::jsonb` })
      .where('status = :status AND created_at < :olderThan', { status: 'streaming', olderThan })
      .execute();
    return result.affected ?? 0;
  }

  findShare(id: string): Promise<ShareEntity | null> {
    return this.shares.findOne({ where: { id, revokedAt: IsNull() } });
  }

  activeShare(userId: string, chatId: string): Promise<ShareEntity | null> {
    return this.shares.findOne({ where: { userId, chatId, revokedAt: IsNull() } });
  }

  async insertShare(share: Pick<ShareEntity, 'id' | 'chatId' | 'userId'>): Promise<ShareEntity> {
    return this.shares.save(this.shares.create({ ...share, revokedAt: null }));
  }

  async revokeShares(userId: string, chatId: string): Promise<number> {
    const result = await this.shares.update({ userId, chatId, revokedAt: IsNull() }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }
}
