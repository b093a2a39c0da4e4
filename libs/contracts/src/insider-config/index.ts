import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { healthContract } from '../common/health';
import { userExportContract } from '../common/user-data';

/** The five insider flags (spec section 3): nullable, except can_create_invite. */
export const InsiderFlagsSchema = z.object({
  dislike_button_verbose_feedback: z.boolean().nullable(),
  show_rewritten_user_message: z.boolean().nullable(),
  show_auto_model_selection: z.boolean().nullable(),
  enable_ko_search: z.boolean().nullable(),
  can_create_invite: z.boolean(),
});
export type InsiderFlags = z.infer<typeof InsiderFlagsSchema>;

export const InsiderStatusSchema = z.object({ is_insider: z.boolean(), is_insider_enabled: z.boolean() });

/** Calls answered by the insider-config service (subjects `insider-config.*`). */
export const INSIDER_CONFIG_RPC = {
  health: healthContract('insider-config'),
  export: userExportContract('insider-config'),
  /** The flags in force for a user (section 4's rule), for other services to act on. */
  effectiveFlags: defineRpc({
    subject: 'insider-config.flags.effective',
    request: z.object({ user_id: z.uuid() }).strict(),
    response: InsiderStatusSchema.extend({ effective: InsiderFlagsSchema.extend({ can_create_invite: z.boolean().nullable() }) }),
    description: 'The effective insider flags of a user',
  }),
} as const;
