import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InsiderStatusEntity } from './insider-status.entity';

@Injectable()
export class InsiderStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(userId: string): Promise<InsiderStatusEntity | null> {
    return this.dataSource.getRepository(InsiderStatusEntity).findOne({ where: { userId } });
  }
}
