import { ALLOWED_FILE_TYPES, INLINE_FILE_TYPES, type AllowedFileType } from '@app/contracts/files';

/** What the first bytes of a file say it is. */
export type Sniffed = { ok: true; type: AllowedFileType } | { ok: false; reason: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const UNSUPPORTED = 'This type of file is not supported. Attach an image (PNG, JPEG, GIF, WebP), a PDF or a text file.';
const HEIC = 'HEIC photos are not supported yet. Attach the photo as JPEG or PNG.';

/** Known binary formats we refuse with a clear word (the bytes, not the name, decide). */
const REFUSED: readonly { signature: readonly number[]; offset?: number; what: string }[] = [
  { signature: ascii('MZ'), what: 'a Windows program' },
  { signature: [0x7f, 0x45, 0x4c, 0x46], what: 'a program' },
  { signature: [0xcf, 0xfa, 0xed, 0xfe], what: 'a program' },
  { signature: [0xce, 0xfa, 0xed, 0xfe], what: 'a program' },
  { signature: [0xca, 0xfe, 0xba, 0xbe], what: 'a program' },
  { signature: [0x50, 0x4b, 0x03, 0x04], what: 'an archive' },
  { signature: [0x1f, 0x8b], what: 'an archive' },
  { signature: ascii('Rar!'), what: 'an archive' },
  { signature: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'an archive' },
];

/** Whether the bytes are UTF-8 text: no NUL, valid UTF-8 (a sequence cut at the end of a partial read is allowed). */
export function looksLikeText(bytes: Uint8Array, complete: boolean): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/** A checker fed the whole content chunk by chunk: valid UTF-8 from start to end, and no NUL. */
export class Utf8TextChecker {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private valid = true;

  push(bytes: Uint8Array): boolean {
    if (!this.valid) return false;
    try {
      this.decoder.decode(bytes, { stream: true });
      this.valid = !bytes.includes(0);
    } catch {
      this.valid = false;
    }
    return this.valid;
  }

  end(): boolean {
    if (!this.valid) return false;
    try {
      this.decoder.decode();
    } catch {
      this.valid = false;
    }
    return this.valid;
  }
}

const extensionOf = (filename: string) => /\.([A-Za-z0-9]{1,10})$/.exec(filename)?.[1].toLowerCase() ?? '';

/** Which text type: by the name's extension, then by the client's claim among text types, else plain text. */
function textTypeOf(filename: string, declaredType: string | null | undefined): AllowedFileType {
  const extension = extensionOf(filename);
  if (extension === 'md' || extension === 'markdown') return 'text/markdown';
  if (extension === 'csv') return 'text/csv';
  const declared = (declaredType ?? '').split(';')[0].trim().toLowerCase();
  if (declared === 'text/markdown' || declared === 'text/csv') return declared;
  return 'text/plain';
}

/**
 * Decides a file's type from its first bytes (the first chunk of an upload): magic numbers for
 * images and PDF, valid UTF-8 without NUL for text. The client's claimed type and the name are
 * only used to tell text types apart. A renamed program claiming to be a PNG is still a program.
 */
export function sniffContent(head: Uint8Array, options: { filename: string; declaredType?: string | null; complete: boolean }): Sniffed {
  if (head.length === 0) return { ok: false, reason: 'The file is empty.' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ok: true, type: 'image/png' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { ok: true, type: 'image/jpeg' };
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return { ok: true, type: 'image/gif' };
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return { ok: true, type: 'image/webp' };
  if (startsWith(head, ascii('%PDF-'))) return { ok: true, type: 'application/pdf' };
  if (startsWith(head, ascii('ftyp'), 4)) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return { ok: false, reason: HEIC };
    return { ok: false, reason: UNSUPPORTED };
  }
  for (const refused of REFUSED) {
    if (startsWith(head, refused.signature, refused.offset))
      return { ok: false, reason: `This file looks like ${refused.what}, which cannot be attached. ${UNSUPPORTED}` };
  }
  if (looksLikeText(head, options.complete)) return { ok: true, type: textTypeOf(options.filename, options.declaredType) };
  return { ok: false, reason: UNSUPPORTED };
}

export const isTextType = (type: string) => type.startsWith('text/');
export const isImageType = (type: string) => type.startsWith('image/');

/** Names whose browsers would run script if shown inline, whatever their stored type. */
const SCRIPTABLE_EXTENSIONS = new Set(['svg', 'svgz', 'html', 'htm', 'xhtml', 'xht', 'xml', 'xsl', 'xslt', 'js', 'mjs', 'swf']);
const KNOWN_TYPES = new Set<string>(ALLOWED_FILE_TYPES);
const INLINE_TYPES = new Set<string>(INLINE_FILE_TYPES);

/**
 * How a stored file is served: a safe Content-Type (text with its charset; anything unknown as
 * bytes), inline only for raster images and plain text (INLINE_FILE_TYPES), as an attachment for
 * anything else (PDFs included) or any name a browser might treat as markup.
 */
export function servingOf(mimeType: string, filename: string): { contentType: string; disposition: 'inline' | 'attachment' } {
  const known = KNOWN_TYPES.has(mimeType) ? mimeType : 'application/octet-stream';
  const contentType = isTextType(known) ? `${known}; charset=utf-8` : known;
  const inline = INLINE_TYPES.has(known) && !SCRIPTABLE_EXTENSIONS.has(extensionOf(filename));
  return { contentType, disposition: inline ? 'inline' : 'attachment' };
}
