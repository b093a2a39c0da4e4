import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Settings the service makes once and keeps (`sms_setting`): every replica reads the same. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The setting, made by `make` the first time it is asked for (the development signing key). */
  async setting(key: string, make: () => string): Promise<string> {
    await this.dataSource.query('INSERT INTO sms_setting (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, make()]);
    const [row]: { value: string }[] = await this.dataSource.query('SELECT value FROM sms_setting WHERE key = $1', [key]);
    return row.value;
  }
}
