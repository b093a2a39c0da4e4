import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import sharp from 'sharp';
import type { SmsConfig } from '../../config';

/** What the model is given at most: a picture over this is made smaller first. */
export const MAX_PICTURE_BYTES = 500 * 1024;
/** The most a picture may weigh as it arrives (Twilio's own MMS limit is 5 MB). */
const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;
/** Longest side and JPEG quality of a downscaled picture, tried in turn: the first is plenty for the model to read it. */
const STEPS: [number, number][] = [
  [1600, 80],
  [1024, 70],
  [768, 60],
];

/** A picture ready for the model, or why it could not be read. */
export type PictureResult =
  { ok: true; data: Buffer; contentType: string } | { ok: false; reason: 'unreachable' | 'too_large' | 'not_an_image' };

/**
 * An MMS picture's bytes for the model. Twilio's media URLs take the account's credentials; they
 * are sent only to Twilio's own API origin (TWILIO_API_BASE_URL), never to whatever host a media URL
 * names (and fetch drops them on a redirect elsewhere). A picture over 500 KB (phones send 2-4 MB
 * photos) is downscaled with sharp to a JPEG of at most 1600 px a side (smaller when it must); one that still does not
 * fit, or is not a picture at all, is reported so the texter is told.
 */
@Injectable()
export class MmsMedia {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: Pick<SmsConfig, 'TWILIO_API_BASE_URL' | 'TWILIO_ACCOUNT_SID' | 'TWILIO_AUTH_TOKEN'>,
    private readonly logger: AppLogger,
  ) {}

  async picture(url: string, contentType: string): Promise<PictureResult> {
    const data = await this.download(url);
    if (data === 'too_large' || data === null) return { ok: false, reason: data ?? 'unreachable' };
    if (data.length <= MAX_PICTURE_BYTES) return { ok: true, data, contentType };
    try {
      // Smaller and smaller until it fits: a photo fits at the first step, noise may take them all.
      for (const [side, quality] of STEPS) {
        const smaller = await sharp(data, { limitInputPixels: 100_000_000 })
          .rotate()
          .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
          .jpeg({ quality })
          .toBuffer();
        if (smaller.length <= MAX_PICTURE_BYTES) return { ok: true, data: smaller, contentType: 'image/jpeg' };
      }
      return { ok: false, reason: 'too_large' };
    } catch (error) {
      this.logger.warn({ msg: 'An MMS picture could not be read', error: String(error) }, 'MmsMedia');
      return { ok: false, reason: 'not_an_image' };
    }
  }

  private async download(url: string): Promise<Buffer | 'too_large' | null> {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
      const headers: Record<string, string> = {};
      const twilio = parsed.origin === new URL(this.config.TWILIO_API_BASE_URL).origin;
      if (twilio && this.config.TWILIO_ACCOUNT_SID && this.config.TWILIO_AUTH_TOKEN) {
        headers.authorization = `Basic ${Buffer.from(`${this.config.TWILIO_ACCOUNT_SID}:${this.config.TWILIO_AUTH_TOKEN}`).toString('base64')}`;
      }
      const response = await fetch(parsed, { headers, redirect: 'follow', signal: AbortSignal.timeout(10_000) });
      if (!response.ok || !response.body) return null;
      if (Number(response.headers.get('content-length') ?? 0) > MAX_DOWNLOAD_BYTES) {
        await response.body.cancel();
        return 'too_large';
      }
      // Read at most the limit, whatever the header said.
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > MAX_DOWNLOAD_BYTES) return 'too_large';
        chunks.push(Buffer.from(chunk));
      }
      return size > 0 ? Buffer.concat(chunks) : null;
    } catch (error) {
      this.logger.warn({ msg: 'An MMS picture could not be fetched', error: String(error) }, 'MmsMedia');
      return null;
    }
  }
}
