import { Injectable } from '@nestjs/common';
import { isLivingUser } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';

/** One cached clip: how to serve it and its bytes. */
export interface CachedAudio {
  contentType: string;
  requestId: string;
  audio: Buffer;
}

export interface NewCachedAudio extends CachedAudio {
  userId: string;
  key: string;
  engine: string;
  model: string;
  voice: string;
  speed: number;
  format: string;
  textChars: number;
}

/** The only place that touches the tts schema. */
@Injectable()
export class AudioCacheRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The clip, marked as just used; null when not cached (or older than maxAgeSeconds). */
  async find(userId: string, key: string, maxAgeSeconds: number): Promise<CachedAudio | null> {
    const rows: { id: string; content_type: string; request_id: string; audio: Buffer }[] = await this.dataSource.query(
      // A statement that answers rows (an UPDATE through TypeORM answers [rows, count]).
      `WITH used AS (
         UPDATE audio_cache c SET last_used_at = now()
          WHERE c.user_id = $1 AND c.cache_key = $2 AND c.last_used_at > now() - make_interval(secs => $3)
          RETURNING c.id, c.content_type, c.request_id)
       SELECT used.id, used.content_type, used.request_id, b.audio FROM used JOIN audio_cache_bytes b ON b.cache_id = used.id`,
      [userId, key, maxAgeSeconds],
    );
    const row = rows[0];
    return row ? { contentType: row.content_type, requestId: row.request_id, audio: row.audio } : null;
  }

  /** Keeps a clip (nothing for a deleted account), then drops the least recently used beyond maxBytes in all and those unused for maxAgeSeconds. */
  async put(clip: NewCachedAudio, limits: { maxBytes: number; maxAgeSeconds: number }): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Under the user's lock: a purge running now either ran before (nothing is kept) or waits for this row and takes it.
      // Shared: the clips of one reply, synthesised in parallel, do not queue behind each other.
      if (!(await isLivingUser(manager, clip.userId))) return;
      const id = randomUUID();
      const inserted: unknown[] = await manager.query(
        `WITH inserted AS (INSERT INTO audio_cache (id, user_id, cache_key, engine, model, voice, speed, format, text_chars, content_type, request_id, size)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (user_id, cache_key) DO NOTHING RETURNING id) SELECT id FROM inserted`,
        [
          id,
          clip.userId,
          clip.key,
          clip.engine,
          clip.model,
          clip.voice,
          clip.speed,
          clip.format,
          clip.textChars,
          clip.contentType,
          clip.requestId,
          clip.audio.length,
        ],
      );
      if (inserted.length) await manager.query('INSERT INTO audio_cache_bytes (cache_id, audio) VALUES ($1, $2)', [id, clip.audio]);
    });
    await this.dataSource.query(
      `DELETE FROM audio_cache WHERE id IN (
         SELECT id FROM (SELECT id, last_used_at, sum(size) OVER (ORDER BY last_used_at DESC, id) AS kept FROM audio_cache) ranked
          WHERE kept > $1 OR last_used_at < now() - make_interval(secs => $2))`,
      [limits.maxBytes, limits.maxAgeSeconds],
    );
  }
}
