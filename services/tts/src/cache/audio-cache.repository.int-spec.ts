import { randomUUID } from 'node:crypto';
import { forgetUser } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { ttsMigrations } from '../migrations';
import { AudioCacheRepository, type NewCachedAudio } from './audio-cache.repository';

const LIMITS = { maxBytes: 1_000_000, maxAgeSeconds: 3_600 };

/**
 * The read-aloud cache against the real PostgreSQL: a clip is one user's (never another's), kept
 * once per key, dropped least recently used first past the byte budget and when unused too long,
 * and never kept for a deleted account.
 */
describe('AudioCacheRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let cache: AudioCacheRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'audiocache', schema: 'tts', migrations: ttsMigrations });
    cache = new AudioCacheRepository(db.source);
  });

  afterAll(() => db?.drop());

  beforeEach(() => db.source.query('DELETE FROM audio_cache'));

  const clipOf = (userId: string, key: string, bytes = 100): NewCachedAudio => ({
    userId,
    key,
    engine: 'offline',
    model: 'espeak',
    voice: 'alloy',
    speed: 1,
    format: 'mp3',
    textChars: 12,
    contentType: 'audio/mpeg',
    requestId: `req-${key}`,
    audio: Buffer.alloc(bytes, key.length),
  });

  it('serves a clip to its user only, with its bytes, and keeps the first of two for one key', async () => {
    const userId = randomUUID();
    await Promise.all([cache.put(clipOf(userId, 'hello'), LIMITS), cache.put({ ...clipOf(userId, 'hello'), requestId: 'second' }, LIMITS)]);

    const found = await cache.find(userId, 'hello', LIMITS.maxAgeSeconds);
    expect(found?.audio.length).toBe(100);
    expect(found?.contentType).toBe('audio/mpeg');
    expect(['req-hello', 'second']).toContain(found?.requestId);
    expect(await cache.find(randomUUID(), 'hello', LIMITS.maxAgeSeconds)).toBeNull();
    const [{ n }] = (await db.source.query('SELECT count(*)::int AS n FROM audio_cache_bytes')) as { n: number }[];
    expect(n).toBe(1);
  });

  it('drops the least recently used clips past the byte budget, a read counting as a use', async () => {
    const userId = randomUUID();
    await cache.put(clipOf(userId, 'a'), LIMITS);
    await cache.put(clipOf(userId, 'b'), LIMITS);
    await db.source.query("UPDATE audio_cache SET last_used_at = now() - interval '1 minute' WHERE cache_key IN ('a', 'b')");
    await db.source.query("UPDATE audio_cache SET last_used_at = now() - interval '2 minutes' WHERE cache_key = 'a'");
    // 'a' is read now: 'b' becomes the least recently used.
    expect(await cache.find(userId, 'a', LIMITS.maxAgeSeconds)).not.toBeNull();

    await cache.put(clipOf(userId, 'c'), { ...LIMITS, maxBytes: 250 });
    expect(await cache.find(userId, 'b', LIMITS.maxAgeSeconds)).toBeNull();
    expect(await cache.find(userId, 'a', LIMITS.maxAgeSeconds)).not.toBeNull();
    expect(await cache.find(userId, 'c', LIMITS.maxAgeSeconds)).not.toBeNull();
    const [{ n }] = (await db.source.query('SELECT count(*)::int AS n FROM audio_cache_bytes')) as { n: number }[];
    expect(n).toBe(2);
  });

  it('does not serve, and then drops, a clip unused for longer than the age limit', async () => {
    const userId = randomUUID();
    await cache.put(clipOf(userId, 'old'), LIMITS);
    await db.source.query("UPDATE audio_cache SET last_used_at = now() - interval '2 hours'");

    expect(await cache.find(userId, 'old', LIMITS.maxAgeSeconds)).toBeNull();
    await cache.put(clipOf(userId, 'new'), LIMITS);
    const keys = (await db.source.query('SELECT cache_key FROM audio_cache')) as { cache_key: string }[];
    expect(keys.map((k) => k.cache_key)).toEqual(['new']);
  });

  it('keeps nothing for a deleted account', async () => {
    const userId = randomUUID();
    await db.source.transaction((manager) => forgetUser(manager, userId));
    await cache.put(clipOf(userId, 'late'), LIMITS);
    expect(await cache.find(userId, 'late', LIMITS.maxAgeSeconds)).toBeNull();
  });
});
