export * from './common/caller';
export * from './common/constants';
export * from './common/contract';
export * from './common/errors';
export * from './common/health';
export * from './common/services';
export * from './common/user-data';
