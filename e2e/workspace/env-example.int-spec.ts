import { embeddedEnvSchema, SERVICES } from '@app/embedded';
import { runtimeEnvSchema } from '@app/platform';
import { gatewayEnvSchema } from '@app/service-gateway';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every variable a process reads at boot is documented in .env.example. */
describe('.env.example', () => {
  const documented = readFileSync(join(__dirname, '../../.env.example'), 'utf8');
  const variables = [
    ...Object.keys(runtimeEnvSchema.shape),
    ...Object.keys(gatewayEnvSchema.shape),
    ...Object.keys(embeddedEnvSchema.shape),
    ...SERVICES.flatMap((service) => Object.keys(service.config?.shape ?? {})),
  ];

  it.each(variables)('documents %s', (name) => {
    expect(documented).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
  });
});
