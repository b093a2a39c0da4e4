export * from './machine';
export * from './probe/probe.contracts';
export { probeService } from './probe/probe.service';
export { ProbeGatewayModule } from './probe/probe-gateway.module';
export * from './fakes/fake-twilio';
export * from './fakes/fake-oidc';
export * from './fakes/fake-openai';
export * from './fakes/fake-s3';
