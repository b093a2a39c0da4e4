/** The services behind the gateway. Each owns its Postgres schema and its subjects `<name>.*`. */
export const SERVICE_NAMES = ['auth', 'chat', 'memory', 'files', 'insider-config', 'tts', 'sms'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Postgres schema of a service: the name with dashes turned into underscores. */
export function schemaOf(service: ServiceName | (string & {})): string {
  return service.replace(/-/g, '_');
}
