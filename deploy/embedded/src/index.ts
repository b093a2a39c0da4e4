export { bootEmbedded, embeddedEnvSchema, type EmbeddedStack } from './embedded';
export { SERVICES } from './services';
