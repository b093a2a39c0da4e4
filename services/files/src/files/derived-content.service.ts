import { Inject, Injectable } from '@nestjs/common';
import type { ModelInput } from '@app/contracts/files';
import { DomainError, type PublicOf } from '@app/platform';
import sharp from 'sharp';
import { isImageType, isTextType } from './content-sniffer';
import { FilesRepository, type FileRecord } from './files.repository';
import { OBJECT_KEYS, OBJECT_STORE, ObjectNotFoundError, readAll, type ObjectStore } from '../store/object-store';

/** Images larger than this many pixels are not decoded (decompression bombs). */
const MAX_INPUT_PIXELS = 100_000_000;
/** What one bus message may carry of a model input (NATS takes 1 MB; the envelope needs room). */
const MESSAGE_BUDGET_BYTES = 700_000;
const PREVIEW_QUALITY = 80;

export const CANNOT_READ_IMAGE = 'This image could not be read.';
export const CANNOT_READ_PDF = 'The text of this PDF could not be read.';

/** Cuts text to `maxChars` characters, never inside a surrogate pair, and to what fits one message. */
export function truncateText(text: string, maxChars: number): { text: string; truncated: boolean } {
  let cut = text.length > maxChars ? text.slice(0, maxChars) : text;
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  while (Buffer.byteLength(JSON.stringify(cut)) > MESSAGE_BUDGET_BYTES)
    cut = cut.slice(0, Math.floor(cut.length * 0.8)).replace(/[\ud800-\udbff]$/, '');
  return { text: cut, truncated: cut.length < text.length };
}

/**
 * What is made from a stored file: previews for the web client (sharp, once per resolution, kept
 * as objects beside the file), and the file as a model takes it (a downscaled image, or text).
 */
@Injectable()
export class DerivedContentService {
  constructor(
    @Inject(FilesRepository) private readonly store: PublicOf<FilesRepository>,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
  ) {}

  /** A small WebP data URL fitting in resolution x resolution (never enlarged), made once and kept. */
  async preview(file: FileRecord, resolution: number): Promise<string | null> {
    if (!isImageType(file.mimeType)) return null;
    const key = OBJECT_KEYS.preview(file.id, resolution);
    if (file.derivedKeys.includes(key)) {
      try {
        return toDataUrl('image/webp', await readAll(await this.objects.get(key)));
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
    }
    const original = await this.original(file);
    let preview: Buffer;
    try {
      preview = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(resolution, resolution, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: PREVIEW_QUALITY })
        .toBuffer();
    } catch {
      return null; // Stored, but not decodable: the file opens, there is just no thumbnail.
    }
    await this.store.addDerivedKey(file.id, key);
    await this.objects.put(key, preview, preview.length, 'image/webp');
    return toDataUrl('image/webp', preview);
  }

  async forModel(file: FileRecord, limits: { max_image_px: number; max_text_chars: number }): Promise<ModelInput> {
    if (isImageType(file.mimeType)) return this.imageForModel(file, limits.max_image_px);
    if (file.mimeType === 'application/pdf') {
      const { text, pages } = await this.pdfText(file);
      return { kind: 'text', mime_type: file.mimeType, ...truncateText(text, limits.max_text_chars), pages, filename: file.filename };
    }
    if (isTextType(file.mimeType)) {
      const text = (await this.original(file)).toString('utf8').replace(/^\ufeff/, '');
      return { kind: 'text', mime_type: file.mimeType, ...truncateText(text, limits.max_text_chars), pages: null, filename: file.filename };
    }
    throw new DomainError('unsupported_media_type', 'This file cannot be given to the model.');
  }

  /** JPEG within maxPx x maxPx (orientation applied, transparency on white), small enough for one message. */
  private async imageForModel(file: FileRecord, maxPx: number): Promise<ModelInput> {
    const original = await this.original(file);
    let px = maxPx;
    let quality = 85;
    for (;;) {
      let image: { data: Buffer; info: sharp.OutputInfo };
      try {
        image = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .resize(px, px, { fit: 'inside', withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .jpeg({ quality, mozjpeg: true })
          .toBuffer({ resolveWithObject: true });
      } catch {
        throw new DomainError('unsupported_media_type', CANNOT_READ_IMAGE);
      }
      const dataUrl = toDataUrl('image/jpeg', image.data);
      if (dataUrl.length <= MESSAGE_BUDGET_BYTES || px <= 256) {
        return {
          kind: 'image',
          mime_type: 'image/jpeg',
          data_url: dataUrl,
          width: image.info.width,
          height: image.info.height,
          filename: file.filename,
        };
      }
      if (quality > 55) quality -= 15;
      else px = Math.round(px * 0.75);
    }
  }

  /** A PDF's text (pages joined), extracted once with pdf.js (unpdf) and kept beside the file. */
  private async pdfText(file: FileRecord): Promise<{ text: string; pages: number | null }> {
    const key = OBJECT_KEYS.text(file.id);
    if (file.derivedKeys.includes(key)) {
      try {
        const cached = JSON.parse((await readAll(await this.objects.get(key))).toString('utf8')) as { text: string; pages: number };
        return cached;
      } catch (error) {
        if (!(error instanceof ObjectNotFoundError)) throw error;
      }
    }
    let extracted: { text: string; pages: number };
    try {
      const { extractText, getDocumentProxy } = await import('unpdf');
      const document = await getDocumentProxy(new Uint8Array(await this.original(file)));
      const { totalPages, text } = await extractText(document, { mergePages: true });
      await document.cleanup();
      extracted = { text: text.trim(), pages: totalPages };
    } catch {
      throw new DomainError('unsupported_media_type', CANNOT_READ_PDF);
    }
    const body = Buffer.from(JSON.stringify(extracted));
    await this.store.addDerivedKey(file.id, key);
    await this.objects.put(key, body, body.length, 'application/json');
    return extracted;
  }

  private async original(file: FileRecord): Promise<Buffer> {
    return readAll(await this.objects.get(file.storageKey));
  }
}

function toDataUrl(mimeType: string, bytes: Buffer): string {
  return `data:${mimeType};base64,${bytes.toString('base64')}`;
}
