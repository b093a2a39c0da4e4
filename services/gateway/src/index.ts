export { gatewayEnvSchema, type GatewayConfig } from './config';
export { createGateway, type Gateway, type GatewayOptions } from './create-gateway';
export { callerOf } from './http/request-context';
export { ZodPipe } from './http/zod-validation';
export { buildOpenApi } from './docs/openapi';
export { toHttpFailure } from './http/http-errors';
export { drainGateway, GatewayLifecycle, type GatewayDrainOutcome } from './health/lifecycle';
