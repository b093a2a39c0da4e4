import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { OutboundMessageEntity } from './outbound-message.entity';

export type NewOutboundMessage = Pick<OutboundMessageEntity, 'id' | 'toNumber' | 'body' | 'purpose' | 'provider' | 'status'>;
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

  /** The newest messages a provider handled, newest first. */
  newest(provider: string, limit: number): Promise<OutboundMessageEntity[]> {
    return this.messages.find({ where: { provider }, order: { createdAt: 'DESC', id: 'DESC' }, take: limit });
  }
}
