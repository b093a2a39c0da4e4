import type { FactoryProvider } from '@nestjs/common';
import { RUNTIME_ENV, SERVICE_CONFIG, type RuntimeEnv } from '@app/platform';
import { resolve } from 'node:path';
import { s3SettingsOf, type FilesConfig } from '../config';
import { LocalObjectStore } from './local-object.store';
import { OBJECT_STORE, type ObjectStore } from './object-store';
import { S3ObjectStore } from './s3-object.store';

/** The S3 bucket when S3_* are set (its bucket created if missing), else DATA_DIR/objects. */
export const objectStoreProvider: FactoryProvider<ObjectStore> = {
  provide: OBJECT_STORE,
  inject: [SERVICE_CONFIG, RUNTIME_ENV],
  useFactory: async (config: FilesConfig, env: RuntimeEnv) => {
    const s3 = s3SettingsOf(config);
    if (!s3) return new LocalObjectStore(resolve(env.DATA_DIR, 'objects'));
    const store = new S3ObjectStore(s3);
    await store.ensureBucket();
    return store;
  },
};
