import type { ImportSource } from '@app/contracts/chat';
import { z } from 'zod';
import {
  dateOf,
  newestLeaf,
  parentsFirst,
  type ImportedAttachment,
  type ImportedConversation,
  type ImportedMessage,
  type SkippedItem,
} from './imported-conversation';

/**
 * The two exports' conversations, read leniently (unknown fields are ignored: the formats grow) but
 * strictly where it matters (ids, the tree, the roles). A conversation that does not fit is skipped
 * with the reason; a file whose first conversation fits neither is not an export at all.
 */
const text = z.string().max(50_000_000);
const time = z.union([z.number(), z.string()]).nullish();

// ---- ChatGPT: conversations.json is an array of {title, create_time, mapping: {id: node}, current_node} ----

const ChatGptMessageSchema = z.object({
  id: z.string().optional(),
  author: z.object({ role: z.string(), name: z.string().nullish() }),
  content: z
    .object({ content_type: z.string(), parts: z.array(z.unknown()).nullish(), text: z.string().nullish(), language: z.string().nullish() })
    .loose(),
  create_time: time,
  recipient: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const ChatGptNodeSchema = z.object({
  id: z.string(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
  message: ChatGptMessageSchema.nullish(),
});
export const ChatGptConversationSchema = z
  .object({
    id: z.string().min(1).max(200).optional(),
    conversation_id: z.string().min(1).max(200).optional(),
    title: z.string().nullish(),
    create_time: time,
    update_time: time,
    mapping: z.record(z.string(), ChatGptNodeSchema),
    current_node: z.string().nullish(),
  })
  .refine((c) => c.id ?? c.conversation_id, { message: 'has no id' });
type ChatGptMessage = z.infer<typeof ChatGptMessageSchema>;

// ---- Claude: conversations.json is an array of {uuid, name, created_at, chat_messages: [...]} ----

const ClaudeMessageSchema = z.object({
  uuid: z.string().min(1).max(200),
  sender: z.string(),
  text: text.nullish(),
  content: z.array(z.object({ type: z.string(), text: text.nullish() }).loose()).nullish(),
  attachments: z
    .array(z.object({ file_name: z.string().nullish(), file_type: z.string().nullish(), extracted_content: text.nullish() }).loose())
    .nullish(),
  files: z.array(z.object({ file_name: z.string().nullish() }).loose()).nullish(),
  created_at: time,
  parent_message_uuid: z.string().nullish(),
});
export const ClaudeConversationSchema = z.object({
  uuid: z.string().min(1).max(200),
  name: z.string().nullish(),
  created_at: time,
  updated_at: time,
  chat_messages: z.array(ClaudeMessageSchema),
});

/** Which export a conversation (the first of the file) comes from; null when neither. */
export function detectSource(raw: unknown): ImportSource | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  if ('mapping' in raw) return 'chatgpt';
  if ('chat_messages' in raw) return 'claude';
  return null;
}

/** A conversation of the export in the product's terms, or why it cannot be imported. */
export function convert(
  source: ImportSource,
  raw: unknown,
): { ok: true; conversation: ImportedConversation } | { ok: false; reason: string } {
  const schema = source === 'chatgpt' ? ChatGptConversationSchema : ClaudeConversationSchema;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason:
        `Not a ${source === 'chatgpt' ? 'ChatGPT' : 'Claude'} conversation: ${issue?.path.join('.') || 'it'} ${issue?.message ?? ''}`.trim(),
    };
  }
  return {
    ok: true,
    conversation:
      source === 'chatgpt'
        ? fromChatGpt(parsed.data as z.infer<typeof ChatGptConversationSchema>)
        : fromClaude(parsed.data as z.infer<typeof ClaudeConversationSchema>),
  };
}

/** The id a conversation has in its export (to know whether it was imported before), without converting it. */
export function sourceIdOf(source: ImportSource, raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const record = raw as Record<string, unknown>;
  const id = source === 'chatgpt' ? (record.conversation_id ?? record.id) : record.uuid;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : null;
}

// ---- ChatGPT ---------------------------------------------------------------------------------------

/** Content types that are a tool's work, not a message anyone wrote. */
const TOOL_CONTENT = new Set(['execution_output', 'tether_browsing_display', 'tether_quote', 'system_error', 'computer_output', 'code']);
const REASONING_CONTENT = new Set(['thoughts', 'reasoning_recap']);

/** `file-service://file-AbC` or `sediment://file_00ab`: the file id, as the zip names the file. */
export function fileIdOfPointer(pointer: unknown): string | null {
  if (typeof pointer !== 'string') return null;
  const id = pointer.replace(/^[a-z-]+:\/\//, '');
  return /^file[-_][A-Za-z0-9_-]{1,120}$/.test(id) ? id : null;
}

interface ChatGptContent {
  text: string;
  attachments: ImportedAttachment[];
  skipped: SkippedItem[];
}

function chatGptContent(message: ChatGptMessage): ChatGptContent | { skip: string | null } {
  const { content } = message;
  const type = content.content_type;
  if (REASONING_CONTENT.has(type)) return { skip: 'Reasoning shown while a reply was written (not kept)' };
  if (type === 'user_editable_context') return { skip: 'Custom instructions (not a message)' };
  if (TOOL_CONTENT.has(type)) return { skip: `Tool work (${type}) is not shown as a message` };
  const texts: string[] = [];
  const attachments: ImportedAttachment[] = [];
  const skipped: SkippedItem[] = [];
  if (typeof content.text === 'string' && !content.parts) texts.push(content.text);
  for (const part of content.parts ?? []) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    const record = part && typeof part === 'object' ? (part as Record<string, unknown>) : {};
    const partType = typeof record.content_type === 'string' ? record.content_type : 'unknown';
    if (partType === 'image_asset_pointer') {
      const fileId = fileIdOfPointer(record.asset_pointer);
      if (fileId) attachments.push({ kind: 'zip', fileId, name: null });
      else skipped.push({ kind: 'attachment', reason: 'An image whose file id cannot be read' });
    } else if (partType === 'audio_transcription' && typeof record.text === 'string') {
      texts.push(record.text);
    } else if (partType.includes('audio')) {
      skipped.push({ kind: 'part', reason: 'Voice audio (its transcript, when there is one, is kept)' });
    } else {
      skipped.push({ kind: 'part', reason: `Unsupported part (${partType.slice(0, 60)})` });
    }
  }
  if (!['text', 'multimodal_text'].includes(type) && texts.length === 0) return { skip: `Unsupported content (${type.slice(0, 60)})` };
  for (const item of Array.isArray(message.metadata?.attachments) ? message.metadata.attachments : []) {
    const record = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const fileId = fileIdOfPointer(record.id);
    if (fileId && !attachments.some((a) => a.kind === 'zip' && a.fileId === fileId))
      attachments.push({ kind: 'zip', fileId, name: typeof record.name === 'string' ? record.name : null });
  }
  return { text: texts.join('\n\n').trim(), attachments, skipped };
}

/**
 * ChatGPT's `mapping` tree: every node kept is a message whose parent is its nearest kept ancestor
 * (system, hidden, tool and empty nodes are left out: their children move up), so a regenerated
 * reply or an edited question becomes a sibling, as this product's branches are; `current_node`
 * (or its nearest kept ancestor) is the message shown.
 */
export function fromChatGpt(raw: z.infer<typeof ChatGptConversationSchema>): ImportedConversation {
  const skipped: SkippedItem[] = [];
  const kept = new Map<string, ImportedMessage>();
  const nodes = raw.mapping;
  for (const [key, node] of Object.entries(nodes)) {
    const message = node.message;
    if (!message) continue;
    const role = message.author.role;
    const hidden = message.metadata?.is_visually_hidden_from_conversation === true;
    const converted = chatGptContent(message);
    const words = 'text' in converted ? converted.text : '';
    if (role === 'system' || hidden) {
      if (words) skipped.push({ kind: 'message', reason: 'System or hidden messages (instructions, not the conversation)' });
      continue;
    }
    if (role === 'tool') {
      skipped.push({ kind: 'message', reason: 'Tool output is not shown as a message' });
      continue;
    }
    if (role !== 'user' && role !== 'assistant') {
      skipped.push({ kind: 'message', reason: `Messages by "${role.slice(0, 40)}"` });
      continue;
    }
    if (role === 'assistant' && message.recipient && message.recipient !== 'all') {
      skipped.push({ kind: 'message', reason: 'Tool calls the model made' });
      continue;
    }
    if ('skip' in converted) {
      if (converted.skip) skipped.push({ kind: 'message', reason: converted.skip });
      continue;
    }
    skipped.push(...converted.skipped);
    if (!converted.text && converted.attachments.length === 0) continue;
    kept.set(node.id ?? key, {
      sourceId: node.id ?? key,
      parentSourceId: node.parent ?? null,
      sender: role,
      content: converted.text,
      createdAt: dateOf(message.create_time),
      attachments: converted.attachments,
      model: typeof message.metadata?.model_slug === 'string' ? message.metadata.model_slug : null,
    });
  }
  // Each kept message hangs from its nearest kept ancestor (a cycle in the export stops the walk).
  const keptAncestor = (id: string | null | undefined): string | null => {
    const seen = new Set<string>();
    for (let at = id; at && !seen.has(at); at = nodes[at]?.parent) {
      seen.add(at);
      if (kept.has(at)) return at;
    }
    return null;
  };
  for (const message of kept.values()) message.parentSourceId = keptAncestor(nodes[message.sourceId]?.parent);
  const messages = parentsFirst([...kept.values()]);
  const active = keptAncestor(raw.current_node);
  return {
    source: 'chatgpt',
    sourceId: (raw.conversation_id ?? raw.id)!,
    title: raw.title?.trim() || null,
    createdAt: dateOf(raw.create_time),
    updatedAt: dateOf(raw.update_time),
    messages,
    activeSourceId: active && messages.some((m) => m.sourceId === active) ? active : newestLeaf(messages),
    skipped,
  };
}

// ---- Claude ----------------------------------------------------------------------------------------

/** Claude marks a first message's parent with this id. */
const CLAUDE_ROOT = '00000000-0000-4000-8000-000000000000';
const TEXT_NAME = /\.(txt|md|markdown|csv)$/i;

/**
 * Claude's `chat_messages`: a tree through `parent_message_uuid` (an edited or retried message is a
 * sibling), or a plain list in older exports. The newest leaf is the message shown (the export does
 * not say which branch was open). Attachments are kept as the text Claude extracted from them; the
 * bytes of uploaded files are not in Claude's export, so those are listed by name.
 */
export function fromClaude(raw: z.infer<typeof ClaudeConversationSchema>): ImportedConversation {
  const skipped: SkippedItem[] = [];
  const tree = raw.chat_messages.some((m) => m.parent_message_uuid);
  const messages: ImportedMessage[] = [];
  let previous: string | null = null;
  for (const message of raw.chat_messages) {
    const sender = message.sender === 'human' ? 'user' : message.sender === 'assistant' ? 'assistant' : null;
    if (!sender) {
      skipped.push({ kind: 'message', reason: `Messages by "${message.sender.slice(0, 40)}"` });
      continue;
    }
    const texts: string[] = [];
    if (message.content?.length) {
      for (const block of message.content) {
        if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
        else if (block.type === 'thinking') skipped.push({ kind: 'part', reason: 'Reasoning shown while a reply was written (not kept)' });
        else if (block.type === 'tool_use' || block.type === 'tool_result')
          skipped.push({ kind: 'part', reason: 'Tool use is not shown as a message' });
        else skipped.push({ kind: 'part', reason: `Unsupported part (${block.type.slice(0, 60)})` });
      }
    } else if (message.text) {
      texts.push(message.text);
    }
    const attachments: ImportedAttachment[] = [];
    for (const attachment of message.attachments ?? []) {
      const name = (attachment.file_name || 'attachment').slice(0, 200);
      if (attachment.extracted_content?.trim())
        attachments.push({ kind: 'text', name: TEXT_NAME.test(name) ? name : `${name}.txt`, text: attachment.extracted_content });
      else skipped.push({ kind: 'attachment', reason: 'An attachment whose content is not in the export' });
    }
    for (const _file of message.files ?? []) {
      skipped.push({ kind: 'attachment', reason: "Uploaded files (Claude's export holds their names, not their bytes)" });
    }
    const content = texts.join('\n\n').trim();
    if (!content && attachments.length === 0) continue;
    const parent = tree
      ? message.parent_message_uuid && message.parent_message_uuid !== CLAUDE_ROOT
        ? message.parent_message_uuid
        : null
      : previous;
    messages.push({
      sourceId: message.uuid,
      parentSourceId: parent,
      sender,
      content,
      createdAt: dateOf(message.created_at),
      attachments,
      model: null,
    });
    previous = message.uuid;
  }
  // A message left out (empty, or by someone else) passes its children to its own parent.
  const parentOf = new Map(raw.chat_messages.map((m) => [m.uuid, m.parent_message_uuid ?? null]));
  const keptIds = new Set(messages.map((m) => m.sourceId));
  for (const message of messages) {
    const seen = new Set<string>();
    let at = message.parentSourceId;
    while (at && !keptIds.has(at) && !seen.has(at)) {
      seen.add(at);
      at = parentOf.get(at) ?? null;
    }
    message.parentSourceId = at && keptIds.has(at) ? at : null;
  }
  const ordered = parentsFirst(messages);
  return {
    source: 'claude',
    sourceId: raw.uuid,
    title: raw.name?.trim() || null,
    createdAt: dateOf(raw.created_at),
    updatedAt: dateOf(raw.updated_at),
    messages: ordered,
    activeSourceId: newestLeaf(ordered),
    skipped,
  };
}
