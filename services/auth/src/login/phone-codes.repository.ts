import { IsNull, type EntityManager } from 'typeorm';
import { PhoneCodeEntity } from './phone-code.entity';

export type NewPhoneCode = Omit<PhoneCodeEntity, 'createdAt' | 'attempts' | 'consumedAt'>;

export class PhoneCodesRepository {
  constructor(private readonly manager: EntityManager) {}

  async insert(code: NewPhoneCode): Promise<void> {
    await this.manager.insert(PhoneCodeEntity, { ...code, attempts: 0, consumedAt: null });
  }

  /** Retires every code still open for the number (a new one replaces them). */
  async retireOpen(phoneNumber: string): Promise<void> {
    await this.manager.update(PhoneCodeEntity, { phoneNumber, consumedAt: IsNull() }, { consumedAt: new Date() });
  }

  /** The newest code of a number, open or not (to tell "used up" from "expired"), locked for the check. */
  latestForUpdate(phoneNumber: string): Promise<PhoneCodeEntity | null> {
    return this.manager.findOne(PhoneCodeEntity, {
      where: { phoneNumber },
      order: { createdAt: 'DESC' },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** Marks a code used, once: false when it was used (or retired) meanwhile. */
  async consume(id: string): Promise<boolean> {
    const result = await this.manager.update(PhoneCodeEntity, { id, consumedAt: IsNull() }, { consumedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** Records a wrong try (the new count); a burnt code is used up at once. */
  async recordWrongTry(id: string, attempts: number, burnt: boolean): Promise<void> {
    await this.manager.update(PhoneCodeEntity, { id }, burnt ? { attempts, consumedAt: new Date() } : { attempts });
  }
}
