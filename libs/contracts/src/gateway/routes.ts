import { z } from 'zod';

import {
  AccountDeletionSchema,
  AppleConfigSchema,
  AppleLoginBodySchema,
  CampaignSchema,
  CreateInviteBodySchema,
  FirebaseConfigSchema,
  FirebaseLoginBodySchema,
  GoogleConfigSchema,
  GoogleLoginBodySchema,
  InviteSchema,
  LoginResultSchema,
  LogoutResponseSchema,
  OnboardingAgeBodySchema,
  OnboardingProfileBodySchema,
  PhoneCallbackQuerySchema,
  PhoneCodeSentSchema,
  PhoneLoginBodySchema,
  SessionIdResponseSchema,
  UserSchema,
} from '../auth/index';
import {
  AiVoiceConfigSchema,
  AiVoiceConfigUpdateSchema,
  InsiderFlagsSchema,
  InsiderFlagsUpdateSchema,
  InsiderModeBodySchema,
  InsiderStatusSchema,
} from '../insider-config/index';
import { SmsMessageSchema } from '../sms/index';
import { MemoryIdParamsSchema, MemoryListQuerySchema, UpdateMemoryBodySchema, UserMemorySchema } from '../memory/index';
import {
  ConversationSchema,
  ConversationWithMessagesSchema,
  CreateConversationBodySchema,
  FeedbackBodySchema,
  MessageSchema,
  MessagesQuerySchema,
  SendMessageBodySchema,
  SharedConversationSchema,
  ShareSchema,
  UpdateConversationBodySchema,
} from '../chat/index';
import { FileParamsSchema, FileUploadResultSchema, PresignedFileSchema, PresignQuerySchema, ViewQuerySchema } from '../files/index';
import { LivenessResponseSchema, ReadinessQuerySchema, ReadinessResponseSchema, VersionResponseSchema } from './schemas';

const auth = (route: Omit<HttpRoute, 'tag'>): HttpRoute => ({ tag: 'auth', ...route });
const chat = (route: Omit<HttpRoute, 'tag'>): HttpRoute => ({ tag: 'chat', ...route });
const chatId = z.object({ chat_id: z.uuid() });
const messageId = z.object({ message_id: z.uuid() });
/** The reply stream: `event:` names and JSON `data:` as in ReplyEventSchema. */
const replyStream = z.string().describe('text/event-stream of user_message, phase, rewritten_query, reasoning, text, image_partial, image, assistant_message, error, done');
const userConfig = (route: Omit<HttpRoute, 'tag' | 'auth'>): HttpRoute => ({ tag: 'user_config', auth: 'bearer', ...route });

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One HTTP route of the gateway, as documented in the OpenAPI description. */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** Fastify-style path (`/api/v1/chats/:chat_id`). */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: 'none' | 'bearer';
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Success answers by status; `null` for an empty body. */
  readonly responses: Readonly<Record<number, z.ZodType | null>>;
  /** Content type of the success answer when it is not JSON. */
  readonly produces?: string;
  /** Content type of the body when it is not JSON (multipart uploads). */
  readonly consumes?: string;
}

/** Every route the gateway serves. Capabilities append theirs; a test checks the gateway serves exactly these. */
export const HTTP_ROUTES: readonly HttpRoute[] = [
  {
    method: 'GET',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    tag: 'operations',
    auth: 'none',
    responses: { 200: LivenessResponseSchema },
  },
  {
    method: 'GET',
    path: '/readyz',
    summary: 'Readiness: every service and dependency answers (scope=gateway: the gateway\'s own bus and cache only)',
    tag: 'operations',
    auth: 'none',
    query: ReadinessQuerySchema,
    responses: { 200: ReadinessResponseSchema, 503: ReadinessResponseSchema },
  },
  {
    method: 'GET',
    path: '/api/v1/version/commit',
    summary: 'The commit of the running build (never cached)',
    tag: 'version',
    auth: 'none',
    responses: { 200: VersionResponseSchema },
  },
  auth({ method: 'POST', path: '/api/v1/auth/anon', summary: 'Create a guest and sign in as them', auth: 'none', responses: { 200: LoginResultSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/csrf-token', summary: 'A CSRF token (also in the X-CSRF-Token header and a cookie)', auth: 'none', responses: { 200: z.object({ csrf_token: z.string() }) } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/phone_number', summary: 'Text a 6-digit sign-in code (needs X-CSRF-Token)', auth: 'none', body: PhoneLoginBodySchema, responses: { 200: PhoneCodeSentSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/callback/phone_number', summary: 'Sign in with a texted code (a page navigation: redirects to /login-success)', auth: 'none', query: PhoneCallbackQuerySchema, responses: { 302: null } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/config', summary: 'Google sign-in configuration (404 when off)', auth: 'none', responses: { 200: GoogleConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/apple/config', summary: 'Sign in with Apple configuration (404 when off)', auth: 'none', responses: { 200: AppleConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/firebase/config', summary: 'Firebase sign-in configuration (404 when off)', auth: 'none', responses: { 200: FirebaseConfigSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/redirect', summary: 'Start the Google redirect flow (a page navigation)', auth: 'none', query: z.object({ invite_link_id: z.string().optional(), campaign_name: z.string().optional() }), responses: { 302: null } }),
  auth({ method: 'GET', path: '/api/v1/auth/google/callback', summary: "Google's redirect back (signs the browser in, redirects to /login-success)", auth: 'none', responses: { 302: null } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/google', summary: 'Sign in with a Google authorization code (needs X-CSRF-Token)', auth: 'none', body: GoogleLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/apple', summary: 'Sign in with Apple (needs X-CSRF-Token)', auth: 'none', body: AppleLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/login/firebase', summary: 'Sign in with a Firebase ID token (needs X-CSRF-Token)', auth: 'none', body: FirebaseLoginBodySchema, responses: { 200: LoginResultSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/me', summary: 'The signed-in user', auth: 'bearer', responses: { 200: UserSchema } }),
  auth({ method: 'GET', path: '/api/v1/auth/session-id', summary: 'The current session id', auth: 'bearer', responses: { 200: SessionIdResponseSchema } }),
  auth({ method: 'POST', path: '/api/v1/auth/logout', summary: 'End the session everywhere (needs X-CSRF-Token)', auth: 'none', responses: { 200: LogoutResponseSchema } }),
  { method: 'POST', path: '/api/v1/onboarding/age', summary: 'Confirm the age of majority (18)', tag: 'onboarding', auth: 'bearer', body: OnboardingAgeBodySchema, responses: { 200: UserSchema } },
  { method: 'POST', path: '/api/v1/onboarding/profile', summary: 'Set the name', tag: 'onboarding', auth: 'bearer', body: OnboardingProfileBodySchema, responses: { 200: UserSchema } },
  { method: 'POST', path: '/api/v1/onboarding/done', summary: 'Finish onboarding', tag: 'onboarding', auth: 'bearer', responses: { 200: UserSchema } },
  { method: 'GET', path: '/api/v1/users/me/export', summary: 'Everything held about the caller, as a zip', tag: 'account', auth: 'bearer', produces: 'application/zip', responses: { 200: z.string() } },
  { method: 'DELETE', path: '/api/v1/users/me', summary: 'Delete the account and all its data (204 done, 202 still finishing)', tag: 'account', auth: 'bearer', responses: { 204: null, 202: AccountDeletionSchema.pick({}) } },
  { method: 'POST', path: '/api/v1/invites', summary: 'Create an invite link (needs can_create_invite)', tag: 'account', auth: 'bearer', body: CreateInviteBodySchema, responses: { 201: InviteSchema } },
  { method: 'GET', path: '/api/v1/campaigns/:campaign_name', summary: 'A campaign page', tag: 'account', auth: 'none', params: z.object({ campaign_name: z.string() }), responses: { 200: CampaignSchema } },
  userConfig({ method: 'GET', path: '/api/v1/user_config/insider-mode', summary: 'Insider standing and insider-mode switch (false/false for non-insiders)', responses: { 200: InsiderStatusSchema } }),
  userConfig({ method: 'POST', path: '/api/v1/user_config/insider-mode', summary: 'Turn insider mode on (insiders only, else 403) or off', body: InsiderModeBodySchema, responses: { 200: InsiderStatusSchema } }),
  userConfig({ method: 'GET', path: '/api/v1/user_config/insider-mode/insider-flags', summary: 'The effective insider flags (403 for non-insiders)', responses: { 200: InsiderFlagsSchema } }),
  userConfig({ method: 'POST', path: '/api/v1/user_config/insider-mode/insider-flags', summary: 'Merge any subset of the insider flags (403 for non-insiders); answers the effective flags', body: InsiderFlagsUpdateSchema, responses: { 200: InsiderFlagsSchema } }),
  userConfig({ method: 'GET', path: '/api/v1/user_config/ai-voice', summary: 'The AI voice settings (defaults until changed)', responses: { 200: AiVoiceConfigSchema } }),
  userConfig({ method: 'POST', path: '/api/v1/user_config/ai-voice', summary: 'Merge changed AI voice settings (all or nothing); answers them whole', body: AiVoiceConfigUpdateSchema, responses: { 200: AiVoiceConfigSchema } }),
  chat({ method: 'GET', path: '/api/v1/chats', summary: 'Conversations, newest first', auth: 'bearer', responses: { 200: z.array(ConversationSchema) } }),
  chat({ method: 'POST', path: '/api/v1/chats', summary: 'Start a conversation', auth: 'bearer', body: CreateConversationBodySchema, responses: { 201: ConversationSchema } }),
  chat({ method: 'GET', path: '/api/v1/chats/:chat_id', summary: 'A conversation with its messages', auth: 'bearer', params: chatId, responses: { 200: ConversationWithMessagesSchema } }),
  chat({ method: 'PATCH', path: '/api/v1/chats/:chat_id', summary: 'Rename, or switch the active branch', auth: 'bearer', params: chatId, body: UpdateConversationBodySchema, responses: { 200: ConversationSchema } }),
  chat({ method: 'DELETE', path: '/api/v1/chats/:chat_id', summary: 'Delete a conversation', auth: 'bearer', params: chatId, responses: { 204: null } }),
  chat({ method: 'GET', path: '/api/v1/messages/all_user_messages', summary: "The caller's messages (hidden ones left out)", auth: 'bearer', query: MessagesQuerySchema, responses: { 200: z.array(MessageSchema) } }),
  chat({ method: 'POST', path: '/api/v1/chats/:chat_id/messages', summary: 'Send a message; the reply streams back', auth: 'bearer', params: chatId, body: SendMessageBodySchema, produces: 'text/event-stream', responses: { 200: replyStream } }),
  chat({ method: 'POST', path: '/api/v1/messages/:message_id/regenerate', summary: 'Answer again, as a new branch', auth: 'bearer', params: messageId, produces: 'text/event-stream', responses: { 200: replyStream } }),
  chat({ method: 'POST', path: '/api/v1/messages/:message_id/stop', summary: 'Stop the reply to a user message (what came is kept)', auth: 'bearer', params: messageId, responses: { 200: z.object({ stopped: z.boolean() }) } }),
  chat({ method: 'PUT', path: '/api/v1/messages/:message_id/feedback', summary: 'Like or dislike a reply', auth: 'bearer', params: messageId, body: FeedbackBodySchema, responses: { 200: MessageSchema } }),
  chat({ method: 'POST', path: '/api/v1/chats/:chat_id/share', summary: 'Share read-only', auth: 'bearer', params: chatId, responses: { 201: ShareSchema } }),
  chat({ method: 'DELETE', path: '/api/v1/chats/:chat_id/share', summary: 'Stop sharing', auth: 'bearer', params: chatId, responses: { 200: z.object({ revoked: z.boolean() }) } }),
  chat({ method: 'GET', path: '/api/v1/shared/:share_id', summary: 'A shared conversation (404 when missing or revoked)', auth: 'none', params: z.object({ share_id: z.string() }), responses: { 200: SharedConversationSchema } }),
  { method: 'POST', path: '/api/v1/files', summary: 'Upload a file (multipart/form-data, field `file`); 413 over the size limit, 415 for a type off the allow-list (decided by the bytes)', tag: 'files', auth: 'bearer', consumes: 'multipart/form-data', body: z.object({ file: z.string().describe('the file (binary)') }), responses: { 201: FileUploadResultSchema } },
  { method: 'GET', path: '/api/v1/files/presigned/:object_store_object_id', summary: 'A short-lived signed link to a file, its name and (images) a preview data URL', tag: 'files', auth: 'bearer', params: FileParamsSchema, query: PresignQuerySchema, responses: { 200: PresignedFileSchema } },
  { method: 'GET', path: '/api/v1/files/view/:object_store_object_id', summary: "A file's bytes: for its owner (bearer or the access_token cookie of this path) or with a signed link (403 expired or altered)", tag: 'files', auth: 'none', params: FileParamsSchema, query: ViewQuerySchema, produces: 'application/octet-stream', responses: { 200: z.string() } },
  { method: 'GET', path: '/api/v1/dev/sms', summary: 'Development SMS inbox page (console sink only, never in production)', tag: 'development', auth: 'none', produces: 'text/html', responses: { 200: z.string() } },
  { method: 'GET', path: '/api/v1/dev/sms/messages', summary: 'Development SMS inbox as JSON', tag: 'development', auth: 'none', responses: { 200: z.object({ enabled: z.boolean(), messages: z.array(SmsMessageSchema) }) } },
  { method: 'GET', path: '/api/v1/user_memory', summary: "The caller's memories, newest first (removed ones left out), of one conversation with source_chat_id", tag: 'user_memory', auth: 'bearer', query: MemoryListQuerySchema, responses: { 200: z.array(UserMemorySchema) } },
  { method: 'PUT', path: '/api/v1/user_memory/:user_memory_id', summary: 'Edit a memory: its text, its confirmation, or both', tag: 'user_memory', auth: 'bearer', params: MemoryIdParamsSchema, body: UpdateMemoryBodySchema, responses: { 200: UserMemorySchema } },
  { method: 'DELETE', path: '/api/v1/user_memory/:user_memory_id', summary: 'Remove a memory: never used again, restorable for a few minutes (MEMORY_RESTORE_WINDOW_SECONDS), then erased', tag: 'user_memory', auth: 'bearer', params: MemoryIdParamsSchema, responses: { 204: null } },
  { method: 'POST', path: '/api/v1/user_memory/:user_memory_id/restore', summary: 'Undo a removal made moments ago (404 once the window has passed)', tag: 'user_memory', auth: 'bearer', params: MemoryIdParamsSchema, responses: { 200: UserMemorySchema } },
];

