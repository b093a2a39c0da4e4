import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, LessThan, type Repository } from 'typeorm';
import { OutboundMessageEntity } from './outbound-message.entity';

export type NewOutboundMessage = Pick<OutboundMessageEntity, 'id' | 'toNumber' | 'userId' | 'body' | 'purpose' | 'provider' | 'status'>;
export type OutboundMessageOutcome = Pick<OutboundMessageEntity, 'status' | 'providerMessageId' | 'error'>;

/** The only place the sms service touches TypeORM. */
@Injectable()
export class MessagesRepository {
  private readonly messages: Repository<OutboundMessageEntity>;

  constructor(dataSource: DataSource) {
    this.messages = dataSource.getRepository(OutboundMessageEntity);
  }

  /** Stores a message about to be sent; answers it with its creation time. */
  async insert(message: NewOutboundMessage): Promise<OutboundMessageEntity> {
    const result = await this.messages.insert({ ...message, providerMessageId: null, error: null });
    const createdAt = (result.generatedMaps[0] as Partial<OutboundMessageEntity>).createdAt ?? new Date();
    return { ...message, providerMessageId: null, error: null, createdAt };
  }

  async recordOutcome(id: string, outcome: OutboundMessageOutcome): Promise<void> {
    await this.messages.update({ id }, outcome);
  }

  /** The newest messages a provider handled for one number, newest first. */
  newestTo(provider: string, toNumber: string, limit: number): Promise<OutboundMessageEntity[]> {
    return this.messages.find({ where: { provider, toNumber }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }

  /** Gives the texts sent to a number that belong to nobody yet to the number's account. */
  async linkToUser(toNumber: string, userId: string): Promise<void> {
    await this.messages.update({ toNumber, userId: IsNull() }, { userId });
    await this.messages.manager.query('UPDATE inbound_message SET user_id = $2 WHERE from_number = $1 AND user_id IS NULL', [
      toNumber,
      userId,
    ]);
  }

  /** Removes every text sent to or received from a number, whoever it was linked to (the number's opt-out too). */
  async deleteTo(toNumber: string): Promise<void> {
    await this.messages.delete({ toNumber });
    await this.messages.manager.query('DELETE FROM inbound_message WHERE from_number = $1', [toNumber]);
    await this.messages.manager.query('DELETE FROM sms_number WHERE phone_number = $1', [toNumber]);
    await this.messages.manager.query('DELETE FROM sms_group_join WHERE phone_number = $1', [toNumber]);
  }

  /** Removes the texts of one purpose older than `before`; answers how many went. */
  async deleteOlderThan(purpose: string, before: Date): Promise<number> {
    const result = await this.messages.delete({ purpose, createdAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
