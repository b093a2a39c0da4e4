export * from './schemas';
export * from './route';
export * from './routes';
export * from './paths';
