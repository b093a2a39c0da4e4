import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import type { ChatTool, ToolResult } from './chat-tool';

const Args = z.object({
  time_zone: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/London')
    .optional()
    .describe('An IANA time zone (Europe/London, America/New_York); UTC when absent'),
});
type ClockArgs = z.infer<typeof Args>;

/** The current date and time, in a time zone: models do not know what time it is. */
@Injectable()
export class ClockTool implements ChatTool<ClockArgs> {
  readonly name = 'current_time';
  readonly description = 'The current date and time, in a given IANA time zone (UTC by default).';
  readonly parameters = Args;

  constructor(private readonly now: () => Date = () => new Date()) {}

  label(): string {
    return 'Checking the time';
  }

  async run(args: ClockArgs): Promise<ToolResult> {
    const timeZone = args.time_zone ?? 'UTC';
    const now = this.now();
    const local = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(now);
    return { output: JSON.stringify({ time_zone: timeZone, local, iso_utc: now.toISOString() }), summary: `${local} (${timeZone})` };
  }
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
