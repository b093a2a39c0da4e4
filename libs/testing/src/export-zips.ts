import { strToU8, zipSync, type Zippable } from 'fflate';

/**
 * Small exports of ChatGPT and Claude written by code (no real export is copied), and hostile zips,
 * for the import's tests. Each conversation id can be suffixed (`tag`) so a test's export does not
 * collide with another's.
 */

/** A 1x1 PNG: an image attachment the files service takes. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const T0 = Date.UTC(2025, 5, 1, 10, 0, 0) / 1000;

type Node = { id: string; parent: string | null; children: string[]; message: Record<string, unknown> | null };

function chatGptMessage(id: string, role: string, content: Record<string, unknown>, at: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    author: { role, name: null, metadata: {} },
    create_time: at,
    update_time: null,
    content,
    status: 'finished_successfully',
    end_turn: true,
    weight: 1,
    metadata: {},
    recipient: 'all',
    ...extra,
  };
}
const text = (...parts: string[]) => ({ content_type: 'text', parts });

/** Builds a mapping from [id, parent, message] rows (children filled in). */
function mapping(rows: [string, string | null, Record<string, unknown> | null][]): Record<string, Node> {
  const nodes: Record<string, Node> = {};
  for (const [id, parent, message] of rows) nodes[id] = { id, parent, children: [], message };
  for (const node of Object.values(nodes)) if (node.parent) nodes[node.parent]?.children.push(node.id);
  return nodes;
}

/**
 * ChatGPT's conversations.json (the 2025-2026 shape): a hidden system root, a question whose reply
 * was regenerated (two sibling replies), an edited follow-up (two sibling questions) under the
 * second reply, a multimodal question with an image (file-Img001, in the zip) and a voice clip,
 * a tool call and its output, the model's reasoning; `current_node` on the edited branch. And a
 * plain conversation of two messages.
 */
export function chatGptConversations(tag = '') {
  const branched = {
    id: `cg-branched${tag}`,
    conversation_id: `cg-branched${tag}`,
    title: 'Trip to Lisbon',
    create_time: T0,
    update_time: T0 + 600,
    current_node: 'u2b',
    mapping: mapping([
      ['root', null, null],
      ['sys', 'root', chatGptMessage('sys', 'system', text(''), T0, { metadata: { is_visually_hidden_from_conversation: true } })],
      ['ctx', 'sys', chatGptMessage('ctx', 'user', { content_type: 'user_editable_context', user_profile: 'I like trains' }, T0)],
      [
        'u1',
        'ctx',
        chatGptMessage(
          'u1',
          'user',
          {
            content_type: 'multimodal_text',
            parts: [
              { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-Img001', size_bytes: 70, width: 1, height: 1 },
              'Plan a weekend in Lisbon, here is the hotel.',
              { content_type: 'audio_asset_pointer', asset_pointer: 'sediment://file_audio1', format: 'wav' },
            ],
          },
          T0 + 10,
        ),
      ],
      [
        'think',
        'u1',
        chatGptMessage('think', 'assistant', { content_type: 'thoughts', thoughts: [{ summary: 'Planning', content: '...' }] }, T0 + 11),
      ],
      ['a1', 'think', chatGptMessage('a1', 'assistant', text('Day one: Alfama.'), T0 + 20, { metadata: { model_slug: 'gpt-4o' } })],
      [
        'a1b',
        'think',
        chatGptMessage('a1b', 'assistant', text('Day one: Belém, then Alfama.'), T0 + 30, { metadata: { model_slug: 'gpt-4o' } }),
      ],
      ['u2', 'a1b', chatGptMessage('u2', 'user', text('And the food?'), T0 + 40)],
      ['u2b', 'a1b', chatGptMessage('u2b', 'user', text('Where should we eat?'), T0 + 50)],
      [
        'a2',
        'u2',
        chatGptMessage('a2', 'assistant', { content_type: 'code', language: 'python', text: 'search("food")' }, T0 + 41, {
          recipient: 'python',
        }),
      ],
      ['t2', 'a2', chatGptMessage('t2', 'tool', { content_type: 'execution_output', text: 'results' }, T0 + 42)],
      ['a3', 't2', chatGptMessage('a3', 'assistant', text('Try pastéis de nata.'), T0 + 43)],
    ]),
  };
  const plain = {
    id: `cg-plain${tag}`,
    title: 'Quick question',
    create_time: T0 + 3600,
    update_time: T0 + 3700,
    current_node: 'p2',
    mapping: mapping([
      ['p0', null, null],
      ['p1', 'p0', chatGptMessage('p1', 'user', text('What is 2+2?'), T0 + 3601)],
      ['p2', 'p1', chatGptMessage('p2', 'assistant', text('4.'), T0 + 3602)],
    ]),
  };
  return [branched, plain];
}

/**
 * Claude's conversations.json: a conversation with a retried reply (a tree through
 * parent_message_uuid), reasoning, an attachment with its extracted text, and an uploaded file whose
 * bytes the export does not hold; and an older-style linear conversation without parent ids.
 */
export function claudeConversations(tag = '') {
  const root = '00000000-0000-4000-8000-000000000000';
  const at = (s: number) => new Date((T0 + s) * 1000).toISOString();
  const msg = (uuid: string, sender: string, words: string, s: number, parent: string | null, extra: Record<string, unknown> = {}) => ({
    uuid: `${uuid}${tag}`,
    text: words,
    content: [{ type: 'text', text: words }],
    sender,
    created_at: at(s),
    updated_at: at(s),
    attachments: [],
    files: [],
    ...(parent !== null ? { parent_message_uuid: parent === root ? root : `${parent}${tag}` } : {}),
    ...extra,
  });
  return [
    {
      uuid: `cl-branched${tag}`,
      name: 'Sourdough starter',
      created_at: at(0),
      updated_at: at(100),
      chat_messages: [
        msg('h1', 'human', 'How do I feed my starter?', 1, root, {
          attachments: [{ file_name: 'notes.md', file_size: 20, file_type: 'text/markdown', extracted_content: '# Feeding\nDaily at 8.' }],
          files: [{ file_name: 'jar.heic' }],
        }),
        msg('r1', 'assistant', 'Feed it equal parts flour and water.', 2, 'h1', {
          content: [
            { type: 'thinking', thinking: 'The user asks about feeding.' },
            { type: 'text', text: 'Feed it equal parts flour and water.' },
          ],
        }),
        msg('r1b', 'assistant', 'Discard half, then feed 1:1:1.', 3, 'h1'),
        msg('h2', 'human', 'How often?', 4, 'r1b'),
        msg('r2', 'assistant', 'Once a day at room temperature.', 5, 'h2'),
      ],
    },
    {
      uuid: `cl-linear${tag}`,
      name: 'Haiku',
      created_at: at(1000),
      updated_at: at(1010),
      chat_messages: [msg('l1', 'human', 'A haiku about rain?', 1001, null), msg('l2', 'assistant', 'Soft rain on the roof', 1002, null)],
    },
  ];
}

const json = (value: unknown) => strToU8(JSON.stringify(value));

/** A ChatGPT export zip: conversations.json, the image it refers to, and the HTML page exports carry. */
export function chatGptExportZip(conversations: unknown[] = chatGptConversations()): Buffer {
  return Buffer.from(
    zipSync({
      'conversations.json': json(conversations),
      'file-Img001-hotel.png': [TINY_PNG, { level: 0 }],
      'chat.html': strToU8('<html><body>export</body></html>'),
      'user.json': json({ id: 'user-x', email: 'someone@example.com' }),
    }),
  );
}

/** A Claude export zip: conversations.json beside users.json and projects.json. */
export function claudeExportZip(conversations: unknown[] = claudeConversations()): Buffer {
  return Buffer.from(
    zipSync({ 'conversations.json': json(conversations), 'users.json': json([{ uuid: 'u' }]), 'projects.json': json([]) }),
  );
}

/** Any files as a zip (for odd cases: no conversations.json, invalid JSON, ...). */
export function zipOf(files: Record<string, string | Uint8Array>): Buffer {
  const entries: Zippable = {};
  for (const [name, content] of Object.entries(files)) entries[name] = typeof content === 'string' ? strToU8(content) : content;
  return Buffer.from(zipSync(entries));
}

/** A zip bomb: 64 MB of zeros that compress to about 64 KB. */
export function zipBomb(): Buffer {
  return Buffer.from(zipSync({ 'conversations.json': [new Uint8Array(64 * 1024 * 1024), { level: 9 }] }));
}

/** An entry named to escape the folder it would be unpacked in. */
export function traversalZip(): Buffer {
  return zipOf({ 'conversations.json': '[]', '../../etc/evil.txt': 'owned' });
}

/**
 * A zip whose conversations.json declares 2 GB (its headers say so; the bytes are few): refused from
 * the declared size, before a byte of it is read.
 */
export function hugeDeclaredEntryZip(): Buffer {
  const zip = zipOf({ 'conversations.json': JSON.stringify(chatGptConversations('-huge')) });
  const declared = 2 * 1024 ** 3 - 1;
  for (let at = 0; at + 4 <= zip.length; at++) {
    const signature = zip.readUInt32LE(at);
    if (signature === 0x04034b50) zip.writeUInt32LE(declared, at + 22);
    if (signature === 0x02014b50) zip.writeUInt32LE(declared, at + 24);
  }
  return zip;
}
