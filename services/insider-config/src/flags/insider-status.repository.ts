import { Injectable } from '@nestjs/common';
import type { InsiderFlags } from '@app/contracts/insider-config';
import { lockLivingUser } from '@app/platform';
import { DataSource } from 'typeorm';
import { InsiderStatusEntity } from './insider-status.entity';

/** A user's stored insider row, as the logic sees it. */
export interface InsiderStatusRow {
  isInsider: boolean;
  isInsiderEnabled: boolean;
  flags: Partial<InsiderFlags>;
}

const view = (row: InsiderStatusEntity): InsiderStatusRow => ({
  isInsider: row.isInsider,
  isInsiderEnabled: row.isInsiderEnabled,
  flags: row.flags,
});

/** Users' insider rows, the only place their SQL lives (a typed fake stands in for it in unit tests). */
@Injectable()
export class InsiderStatusRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<InsiderStatusRow | null> {
    const row = await this.dataSource.getRepository(InsiderStatusEntity).findOne({ where: { userId } });
    return row && view(row);
  }

  /**
   * One change, all or nothing: `change` edits the user's row (a default one when none is stored),
   * locked for the transaction; if it throws, nothing is written (not even the default row).
   */
  update(userId: string, change: (row: InsiderStatusRow) => void): Promise<InsiderStatusRow> {
    return this.dataSource.transaction(async (manager) => {
      await lockLivingUser(manager, userId);
      await manager.createQueryBuilder().insert().into(InsiderStatusEntity).values({ userId }).orIgnore().execute();
      const row = await manager.findOneOrFail(InsiderStatusEntity, { where: { userId }, lock: { mode: 'pessimistic_write' } });
      const next = view(row);
      change(next);
      await manager.update(
        InsiderStatusEntity,
        { userId },
        { isInsider: next.isInsider, isInsiderEnabled: next.isInsiderEnabled, flags: next.flags },
      );
      return next;
    });
  }

  /** The operators' decision. Revoking also turns insider mode off. Answers whether a row changed. */
  async setInsider(userId: string, isInsider: boolean): Promise<boolean> {
    if (isInsider) {
      const rows: unknown[] = await this.dataSource.query(
        `INSERT INTO insider_status (user_id, is_insider) VALUES ($1, true)
         ON CONFLICT (user_id) DO UPDATE SET is_insider = true, updated_at = now()
         WHERE insider_status.is_insider = false
         RETURNING user_id`,
        [userId],
      );
      return rows.length > 0;
    }
    const [, affected] = (await this.dataSource.query(
      'UPDATE insider_status SET is_insider = false, is_insider_enabled = false, updated_at = now() WHERE user_id = $1 AND (is_insider OR is_insider_enabled)',
      [userId],
    )) as [unknown, number];
    return affected > 0;
  }
}
