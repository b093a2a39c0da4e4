import { startTelemetry } from '@app/platform/telemetry';

/** Imported first by main.ts, so tracing patches http and pg before they load. */
export const telemetry = startTelemetry('assistant-insider-config');
