export { gatewayEnvSchema, type GatewayConfig } from './config';
export { createGateway, type Gateway } from './create-gateway';
export { buildOpenApi } from './docs/openapi';
export { toHttpFailure } from './http/http-errors';
