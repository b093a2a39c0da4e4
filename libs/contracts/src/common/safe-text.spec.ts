import { z } from 'zod';
import { CreateConversationBodySchema, SendMessageBodySchema } from '../chat/index';
import { describeZodError } from './errors';
import {
  findUnsafeText,
  isSafeText,
  parseContract,
  safeParseContract,
  toSafeJson,
  toSafeText,
  UNSAFE_KEY_MESSAGE,
  UNSAFE_TEXT_MESSAGE,
} from './safe-text';

describe('safe text', () => {
  it('refuses NUL and unpaired surrogates, and takes everything else (pairs, emoji, RTL marks, controls)', () => {
    for (const bad of ['a\u0000b', '\u0000', 'a\ud800', '\ud800b', '\udc00', 'x\udfffy', '\ud83d\ud83d', '\ude00\ud83d'])
      expect(isSafeText(bad)).toBe(false);
    for (const good of ['', 'plain', 'héllo ✓', '\ud83d\ude00', 'a\u202Eb', 'tab\tnew\nline\u0007', '\uffff', 'x'.repeat(100_000)])
      expect(isSafeText(good)).toBe(true);
  });

  it("makes a text safe to store (a model's answer): NUL dropped, lone surrogates replaced, pairs and the rest kept", () => {
    expect(toSafeText('a\u0000b')).toBe('ab');
    expect(toSafeText('x\ud800y\udc00z')).toBe('x\ufffdy\ufffdz');
    expect(toSafeText('\ude00\ud83d')).toBe('\ufffd\ufffd');
    for (const good of ['plain', '\ud83d\ude00 ok', 'a\u202Eb', 'tab\t\u0007']) expect(toSafeText(good)).toBe(good);
    for (const bad of ['a\u0000b', '\ud83d', 'q\udfff']) expect(isSafeText(toSafeText(bad))).toBe(true);
  });

  it('writes JSON for a jsonb column with every string value made safe, at any depth', () => {
    const json = toSafeJson({ reasoning: 'think\u0000ing', nested: [{ note: '\ud800' }], n: 1, ok: '\ud83d\ude00' });
    expect(json).not.toMatch(/\\u0000|\\ud800/);
    expect(JSON.parse(json)).toEqual({ reasoning: 'thinking', nested: [{ note: '\ufffd' }], n: 1, ok: '\ud83d\ude00' });
  });

  it('finds the first bad string anywhere in a value, with its path, in document order', () => {
    expect(findUnsafeText({ a: 'ok', b: [1, 'fine', { c: 'x\u0000' }], d: 'y\u0000' })).toEqual({
      path: ['b', 2, 'c'],
      message: UNSAFE_TEXT_MESSAGE,
    });
    expect(findUnsafeText('\ud800')).toEqual({ path: [], message: UNSAFE_TEXT_MESSAGE });
    expect(findUnsafeText({ files: [{ object_store_object_id: 'a' }, { mime_type: 'b\udc00' }] })?.path).toEqual(['files', 1, 'mime_type']);
    expect(findUnsafeText({ a: 1, b: null, c: true, d: [], e: {}, f: undefined })).toBeNull();
  });

  it('checks keys too, naming the object that holds the bad key', () => {
    expect(findUnsafeText({ 'a\u0000': 1 })).toEqual({ path: [], message: UNSAFE_KEY_MESSAGE });
    expect(findUnsafeText({ metadata: { ['\ud800']: 'x' } })).toEqual({ path: ['metadata'], message: UNSAFE_KEY_MESSAGE });
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = 'bottom\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnsafeText(deep)?.path).toHaveLength(200_000);
  });

  it("looks into objects of any prototype (Fastify's query and params), not into bytes; a cycle ends", () => {
    expect(findUnsafeText(Buffer.from('\u0000'))).toBeNull();
    expect(findUnsafeText({ at: new Date(0), bytes: new Uint8Array([0]) })).toBeNull();
    expect(findUnsafeText(Object.assign(Object.create(null) as object, { x: '\u0000' }))?.path).toEqual(['x']);
    function Params() {}
    Params.prototype = Object.create(null) as object;
    const params = Object.assign(new (Params as unknown as new () => object)(), { chat_id: 'a\u0000' });
    expect(findUnsafeText(params)?.path).toEqual(['chat_id']);
    const cycle: Record<string, unknown> = { a: 'fine' };
    cycle.self = cycle;
    expect(findUnsafeText(cycle)).toBeNull();
  });

  it('parses a contract after the check, naming the field the way any validation failure does', () => {
    expect(() => parseContract(CreateConversationBodySchema, { conversation_title: 'a\u0000b' })).toThrow(z.ZodError);
    const failed = safeParseContract(CreateConversationBodySchema, { conversation_title: 'a\u0000b' });
    expect(failed.success).toBe(false);
    if (!failed.success) {
      expect(failed.unsafeText).toBe(true);
      expect(describeZodError(failed.error)).toBe(`conversation_title: ${UNSAFE_TEXT_MESSAGE}`);
    }
    const content = safeParseContract(SendMessageBodySchema, { content: 'hi \ud800' });
    expect(!content.success && describeZodError(content.error)).toBe(`content: ${UNSAFE_TEXT_MESSAGE}`);
    // An ordinary schema failure is not an unsafe-text one.
    const empty = safeParseContract(SendMessageBodySchema, { content: '' });
    expect(empty).toMatchObject({ success: false, unsafeText: false });
    // Good input parses as the schema says (trim, defaults...).
    expect(parseContract(SendMessageBodySchema, { content: '  hi \ud83d\ude00 ' })).toEqual({ content: 'hi \ud83d\ude00' });
  });

  it('refuses a bad key even where the schema would have dropped it', () => {
    const stripping = z.object({ a: z.string() });
    expect(() => parseContract(stripping, { a: 'x', ['b\u0000']: 1 })).toThrow(UNSAFE_KEY_MESSAGE);
  });
});
