import type { Message } from '@app/contracts/chat';
import type { UserMemory } from '@app/contracts/memory';
import type { GroupChannel, SmsServiceInfo } from '@app/contracts/sms';
import type { ReplyDraft } from '../modules/chat/state/replyStore';
import { bareMessage } from '../modules/chat/utils/history';

/** A memory item as the server answers it (spec section 3). */
export const memoryItem = (id: string, patch: Partial<UserMemory> = {}): UserMemory => ({
  user_memory_id: id,
  source_chat_id: 'c1',
  source_message_id: 'm1',
  text: `Memory ${id}`,
  is_inference: false,
  is_fact: true,
  is_confirmed: true,
  updated_at: '2025-09-20T10:00:00Z',
  removed_at: null,
  ...patch,
});

/** A reply streaming into conversation c1, its user text sent and no answer yet. */
export const replyDraft = (patch: Partial<ReplyDraft> = {}): ReplyDraft => ({
  chatId: 'c1',
  previousMessageId: null,
  pendingUserText: 'Draw',
  pendingFiles: [],
  regenerateOf: null,
  userMessage: null,
  assistantMessage: null,
  text: 'Here it comes.',
  reasoning: '',
  rewrittenQuery: null,
  serverPhase: null,
  toolLabel: null,
  partialImages: [null, null, null],
  images: [],
  error: null,
  streaming: true,
  stopping: false,
  ...patch,
});

/** A stored message of conversation c1: the user's, its id as its text, unless the patch says otherwise. */
export const chatMessage = (id: string, patch: Partial<Message> = {}): Message =>
  bareMessage({
    message_id: id,
    chat_id: 'c1',
    content: id,
    sender: 'user',
    previous_message_id: null,
    created_at: '2025-01-01T00:00:00Z',
    ...patch,
  });

/** The text service as the server describes it: set up with a number, no development phone. */
export const smsService = (patch: Partial<SmsServiceInfo> = {}): SmsServiceInfo => ({
  phone_number: '+14155550199',
  group_numbers: ['+14155550198'],
  monthly_allowance: 200,
  max_segments: 4,
  dev_phone: false,
  ...patch,
});

/** A group text as its member Ada Lovelace (the caller) sees it, she alone unless `patch` says otherwise. */
export const smsGroup = (patch: Partial<GroupChannel> = {}): GroupChannel => ({
  channel_url: 'hiking-club',
  name: 'Hiking club',
  phone_number: '+14155550177',
  created_at: '2025-09-01T10:00:00Z',
  members: [{ label: 'Ada Lovelace', is_you: true }],
  ...patch,
});
