import { IsNull, type EntityManager } from 'typeorm';
import { PhoneCodeEntity } from './phone-code.entity';

export class PhoneCodesRepository {
  constructor(private readonly manager: EntityManager) {}

  async insert(code: Omit<PhoneCodeEntity, 'createdAt' | 'attempts' | 'consumedAt'>): Promise<void> {
    await this.manager.insert(PhoneCodeEntity, { ...code, attempts: 0, consumedAt: null });
  }

  /** Retires every code still open for the number (a new one replaces them). */
  async retireOpen(phoneNumber: string): Promise<void> {
    await this.manager.update(PhoneCodeEntity, { phoneNumber, consumedAt: IsNull() }, { consumedAt: new Date() });
  }

  /** The newest open code of a number, locked for the check. */
  latestOpenForUpdate(phoneNumber: string): Promise<PhoneCodeEntity | null> {
    return this.manager.findOne(PhoneCodeEntity, {
      where: { phoneNumber, consumedAt: IsNull() },
      order: { createdAt: 'DESC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  save(code: PhoneCodeEntity): Promise<PhoneCodeEntity> {
    return this.manager.save(PhoneCodeEntity, code);
  }

  async deleteForNumber(phoneNumber: string): Promise<void> {
    await this.manager.delete(PhoneCodeEntity, { phoneNumber });
  }
}
