import {
  chatGptConversations,
  chatGptExportZip,
  claudeConversations,
  hugeDeclaredEntryZip,
  traversalZip,
  zipBomb,
  zipOf,
} from '@app/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { convert, detectSource, fileIdOfPointer } from './export-formats';
import { ExportZip, ImportRefused, jsonArrayElements, safeName } from './export-zip';
import type { ImportedConversation } from './imported-conversation';

const LIMITS = { maxEntries: 1000, maxUncompressedBytes: 1024 ** 3, maxEntryBytes: 512 * 1024 ** 2, maxRatio: 200 };

function converted(source: 'chatgpt' | 'claude', raw: unknown): ImportedConversation {
  const result = convert(source, raw);
  if (!result.ok) throw new Error(result.reason);
  return result.conversation;
}
const byId = (c: ImportedConversation) => new Map(c.messages.map((m) => [m.sourceId, m]));

describe('ChatGPT export', () => {
  const [branched, plain] = chatGptConversations();

  it('turns regenerated replies and edited questions into sibling messages, current_node into the message shown', () => {
    const c = converted('chatgpt', branched);
    const m = byId(c);
    expect(c.messages.map((x) => x.sourceId)).toEqual(['u1', 'a1', 'a1b', 'u2', 'a3', 'u2b']);
    // The reasoning node between the question and its replies is left out: both replies hang from the question.
    expect(m.get('a1')!.parentSourceId).toBe('u1');
    expect(m.get('a1b')!.parentSourceId).toBe('u1');
    // The edited follow-up: two questions under the second reply; the tool call and its output are left out.
    expect(m.get('u2')!.parentSourceId).toBe('a1b');
    expect(m.get('u2b')!.parentSourceId).toBe('a1b');
    expect(m.get('a3')!.parentSourceId).toBe('u2');
    // The hidden system root and the custom instructions are not messages: the first question is a root.
    expect(m.get('u1')!.parentSourceId).toBeNull();
    expect(c.activeSourceId).toBe('u2b');
  });

  it('keeps title, dates, text, the model, and the image of a multimodal message', () => {
    const c = converted('chatgpt', branched);
    const m = byId(c);
    expect(c.title).toBe('Trip to Lisbon');
    expect(c.createdAt?.toISOString()).toBe('2025-06-01T10:00:00.000Z');
    expect(c.updatedAt?.toISOString()).toBe('2025-06-01T10:10:00.000Z');
    expect(m.get('u1')).toMatchObject({ sender: 'user', content: 'Plan a weekend in Lisbon, here is the hotel.' });
    expect(m.get('u1')!.attachments).toEqual([{ kind: 'zip', fileId: 'file-Img001', name: null }]);
    expect(m.get('a1')).toMatchObject({ sender: 'assistant', content: 'Day one: Alfama.', model: 'gpt-4o' });
    expect(m.get('a1')!.createdAt?.toISOString()).toBe('2025-06-01T10:00:20.000Z');
  });

  it('lists what it leaves out, with reasons', () => {
    const reasons = converted('chatgpt', branched).skipped.map((s) => `${s.kind}: ${s.reason}`);
    expect(reasons).toEqual(
      expect.arrayContaining([
        'message: Custom instructions (not a message)',
        'message: Reasoning shown while a reply was written (not kept)',
        'message: Tool calls the model made',
        'message: Tool output is not shown as a message',
        'part: Voice audio (its transcript, when there is one, is kept)',
      ]),
    );
    expect(reasons).toHaveLength(5);
  });

  it('falls back to the newest leaf when current_node is missing, and refuses a conversation without a mapping', () => {
    const c = converted('chatgpt', { ...plain, current_node: undefined });
    expect(c.activeSourceId).toBe('p2');
    const refused = convert('chatgpt', { id: 'x', title: 'no mapping' });
    expect(refused).toMatchObject({ ok: false, reason: expect.stringContaining('mapping') });
  });

  it('reads both kinds of file pointers and nothing else', () => {
    expect(fileIdOfPointer('file-service://file-AbC123')).toBe('file-AbC123');
    expect(fileIdOfPointer('sediment://file_00000000abcd')).toBe('file_00000000abcd');
    expect(fileIdOfPointer('file-service://../../etc/passwd')).toBeNull();
    expect(fileIdOfPointer(42)).toBeNull();
  });
});

describe('Claude export', () => {
  const [branched, linear] = claudeConversations();

  it('turns a retried reply into siblings, opens the newest leaf, keeps dates and attachment text', () => {
    const c = converted('claude', branched);
    const m = byId(c);
    expect(c.title).toBe('Sourdough starter');
    expect(m.get('r1')!.parentSourceId).toBe('h1');
    expect(m.get('r1b')!.parentSourceId).toBe('h1');
    expect(m.get('h2')!.parentSourceId).toBe('r1b');
    expect(m.get('h1')!.parentSourceId).toBeNull();
    expect(c.activeSourceId).toBe('r2');
    expect(m.get('r1')!.content).toBe('Feed it equal parts flour and water.');
    expect(m.get('h1')!.attachments).toEqual([{ kind: 'text', name: 'notes.md', text: '# Feeding\nDaily at 8.' }]);
    expect(m.get('h1')!.createdAt?.toISOString()).toBe('2025-06-01T10:00:01.000Z');
    expect(c.skipped.map((s) => s.kind).sort()).toEqual(['attachment', 'part']);
  });

  it('chains an older export without parent ids in order', () => {
    const c = converted('claude', linear);
    expect(c.messages.map((m) => [m.sourceId, m.parentSourceId])).toEqual([
      ['l1', null],
      ['l2', 'l1'],
    ]);
  });

  it('is told from ChatGPT by its content', () => {
    expect(detectSource(branched)).toBe('claude');
    expect(detectSource(chatGptConversations()[0])).toBe('chatgpt');
    expect(detectSource({ hello: 1 })).toBeNull();
    expect(detectSource([1])).toBeNull();
  });
});

describe('reading conversations.json', () => {
  /** The text in pieces of 100 bytes, as a stream brings it. */
  const elements = async (text: string, max = 1024 * 1024) => {
    const bytes = Buffer.from(text);
    const pieces = Array.from({ length: Math.ceil(bytes.length / 100) }, (_, i) => bytes.subarray(i * 100, i * 100 + 100));
    const out: unknown[] = [];
    for await (const value of jsonArrayElements(Readable.from(pieces), max)) out.push(value);
    return out;
  };

  it('yields each element of the array, split anywhere', async () => {
    const bytes = Buffer.from(JSON.stringify([{ a: 'é' }, { b: [1, 2] }]));
    const pieces = Array.from(bytes, (byte) => Buffer.from([byte]));
    const out: unknown[] = [];
    for await (const value of jsonArrayElements(Readable.from(pieces), 1024)) out.push(value);
    expect(out).toEqual([{ a: 'é' }, { b: [1, 2] }]);
  });

  it('refuses what is not a list, not JSON, cut short, or has an oversized element', async () => {
    await expect(elements('{"a": 1}')).rejects.toThrow(ImportRefused);
    await expect(elements('[{"a": }]')).rejects.toThrow(/not valid JSON/);
    await expect(elements('[{"a": 1}, {"b"')).rejects.toThrow(/cut short|not valid/);
    await expect(elements('')).rejects.toThrow(/empty/);
    await expect(elements(JSON.stringify([{ big: 'x'.repeat(5000) }]), 1000)).rejects.toThrow(/over/);
    await expect(elements(JSON.stringify([{ small: 'x'.repeat(500) }, { small: 'y' }]), 1000)).resolves.toHaveLength(2);
  });
});

describe('checking an export zip', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-zip-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const open = async (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    return ExportZip.open(path, LIMITS);
  };

  it('finds conversations.json and the files by their ChatGPT id', async () => {
    const zip = await open('ok.zip', chatGptExportZip());
    expect(zip.conversationsEntry()).not.toBeNull();
    expect(zip.fileById('file-Img001')).toMatchObject({ name: 'hotel.png', size: 70 });
    expect(zip.fileById('file-Nope')).toBeNull();
    zip.close();
  });

  it('refuses a zip bomb, a path that climbs out, a 2 GB entry and what is not a zip', async () => {
    await expect(open('bomb.zip', zipBomb())).rejects.toThrow(/zip bomb/);
    await expect(open('traversal.zip', traversalZip())).rejects.toThrow(/unsafe/);
    await expect(open('huge.zip', hugeDeclaredEntryZip())).rejects.toThrow(/too large/);
    await expect(open('text.zip', Buffer.from('not a zip at all'))).rejects.toThrow(ImportRefused);
    const many = await open('many.zip', zipOf({ 'a.txt': 'a', 'b.txt': 'b' }));
    expect(many.conversationsEntry()).toBeNull();
    many.close();
  });

  it('takes only plain relative names', () => {
    for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'C:/x', 'a\\b', '']) expect(safeName(bad)).toBe(false);
    for (const good of ['conversations.json', 'dalle-generations/file-abc.webp', 'a/b..c']) expect(safeName(good)).toBe(true);
  });
});
