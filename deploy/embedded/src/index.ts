export { bootEmbedded, embeddedDefaults, embeddedEnvSchema, type BootOptions, type EmbeddedStack } from './embedded';
export { SERVICES } from './services';
