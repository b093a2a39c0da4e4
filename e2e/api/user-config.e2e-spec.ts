import type { EmbeddedStack } from '@app/embedded';
import { TRANSPORTS, type TestEnvironment } from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, binary, phoneNumbers } from '../support/api-client';
import { postStream } from '../support/sse';

const MODE = '/api/v1/user_config/insider-mode';
const FLAGS = '/api/v1/user_config/insider-mode/insider-flags';
const VOICE = '/api/v1/user_config/ai-voice';
const INSIDER_CONFIG_MAIN = join(__dirname, '../../services/insider-config/dist/main.js');

const NO_FLAGS = {
  dislike_button_verbose_feedback: null,
  show_rewritten_user_message: null,
  show_auto_model_selection: null,
  enable_ko_search: null,
  can_create_invite: false,
};
const DEFAULT_VOICE = { min_chars: 100, openai_model: 'gpt-4o-mini-tts', voice: 'alloy', speed: 1, auto_read_aloud: false };
const INSIDERS_ONLY_MODE = { detail: 'Insider mode is only available to insiders.' };
const INSIDERS_ONLY_FLAGS = { detail: 'Insider flags are only available to insiders.' };

/**
 * Insider mode, insider flags and AI voice settings through the real gateway, on both transports:
 * guests, signed-in users, insiders granted by an operator (the table, or the grant-insider command).
 */
describe.each(TRANSPORTS)('user settings over the %s transport', (transport) => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  let db: Client;
  let booted: TestStack;
  const nextPhone = phoneNumbers(2000);
  const client = () => new ApiClient(stack.url);

  /** A phone-signed-in user, and their id. */
  async function signedIn(): Promise<{ api: ApiClient; userId: string }> {
    const api = client();
    await api.signInByPhone(nextPhone());
    const me = await api.get('/api/v1/auth/me').expect(200);
    return { api, userId: me.body.user_id };
  }

  /** The operators' command, as they would run it, against this test's database. */
  function operator(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const { NODE_OPTIONS: _ignored, ...env } = process.env;
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [INSIDER_CONFIG_MAIN, ...args],
        { env: { ...env, DATABASE_URL: environment.database.url, LOG_LEVEL: 'error' }, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
        },
      );
    });
  }

  async function voiceRow(userId: string): Promise<Record<string, unknown> | undefined> {
    const { rows } = await db.query('SELECT config FROM insider_config.voice_config WHERE user_id = $1', [userId]);
    return rows[0]?.config;
  }

  beforeAll(async () => {
    booted = await startTestStack('userconfig', transport, { PHONE_CODES_PER_IP: '1000' });
    ({ environment, stack, db } = booted);
  });

  afterAll(async () => {
    await booted?.close();
  });

  it('needs a token on every route', async () => {
    for (const path of [MODE, FLAGS, VOICE]) {
      await client().get(path).expect(401, { detail: 'Not authenticated' });
      await client().post(path, {}).expect(401, { detail: 'Not authenticated' });
    }
  });

  describe('insider mode and flags', () => {
    it('gives a guest false/false, no way to turn insider mode on, and no flags', async () => {
      const guest = client();
      await guest.guest();
      await guest.get(MODE).expect(200, { is_insider: false, is_insider_enabled: false });
      await guest.post(MODE, { is_insider_enabled: true }).expect(403, INSIDERS_ONLY_MODE);
      await guest.post(MODE, { is_insider_enabled: false }).expect(200, { is_insider: false, is_insider_enabled: false });
      await guest.get(FLAGS).expect(403, INSIDERS_ONLY_FLAGS);
      await guest.post(FLAGS, { enable_ko_search: true }).expect(403, INSIDERS_ONLY_FLAGS);
    });

    it('refuses a signed-in non-insider the same way, storing nothing', async () => {
      const { api, userId } = await signedIn();
      await api.get(MODE).expect(200, { is_insider: false, is_insider_enabled: false });
      await api.post(MODE, { is_insider_enabled: true }).expect(403, INSIDERS_ONLY_MODE);
      await api.post(MODE, { is_insider_enabled: false }).expect(200, { is_insider: false, is_insider_enabled: false });
      await api.get(FLAGS).expect(403, INSIDERS_ONLY_FLAGS);
      await api.post(FLAGS, { can_create_invite: true }).expect(403, INSIDERS_ONLY_FLAGS);
      const { rows } = await db.query('SELECT count(*)::int AS n FROM insider_config.insider_status WHERE user_id = $1', [userId]);
      expect(rows[0].n).toBe(0);
      // The user cannot make themselves an insider by naming someone in the body either.
      await api.post(MODE, { is_insider_enabled: true, user_id: userId }).expect(422);
    });

    it('validates the bodies: 422 naming the field, nothing applied', async () => {
      const { api, userId } = await signedIn();
      await db.query('INSERT INTO insider_config.insider_status (user_id, is_insider) VALUES ($1, true)', [userId]);
      for (const body of [{}, { is_insider_enabled: 'yes' }, { is_insider_enabled: null }]) {
        const res = await api.post(MODE, body).expect(422);
        expect(res.body.detail).toMatch(/^is_insider_enabled: /);
      }
      for (const body of [{ enable_ko_search: 'yes' }, { can_create_invite: null }, { enable_ko_search: true, show_everything: true }]) {
        const res = await api.post(FLAGS, body).expect(422);
        expect(Object.keys(res.body)).toEqual(['detail']);
      }
      const { rows } = await db.query('SELECT is_insider_enabled, flags FROM insider_config.insider_status WHERE user_id = $1', [userId]);
      expect(rows[0]).toEqual({ is_insider_enabled: false, flags: {} });
      await api.http
        .post(FLAGS)
        .set('Authorization', `Bearer ${api.token}`)
        .set('Content-Type', 'application/json')
        .send('{"enable_ko_search": tru')
        .expect(400, { detail: 'Malformed JSON body' });
    });

    it('lets an insider granted in the table switch insider mode and keep flags, in force only while it is on', async () => {
      const { api, userId } = await signedIn();
      await db.query('INSERT INTO insider_config.insider_status (user_id, is_insider) VALUES ($1, true)', [userId]);
      await api.get(MODE).expect(200, { is_insider: true, is_insider_enabled: false });
      await api.get(FLAGS).expect(200, NO_FLAGS);

      // Mode off: the flags are stored, but only can_create_invite is in force.
      const stored = await api.post(FLAGS, { enable_ko_search: true, show_auto_model_selection: false }).expect(200);
      expect(stored.body).toEqual(NO_FLAGS);

      await api.post(MODE, { is_insider_enabled: true }).expect(200, { is_insider: true, is_insider_enabled: true });
      await api.get(MODE).expect(200, { is_insider: true, is_insider_enabled: true });
      await api.get(FLAGS).expect(200, { ...NO_FLAGS, enable_ko_search: true, show_auto_model_selection: false });

      // Any subset merges; null unsets a nullable flag; the answer is the full set.
      const merged = await api.post(FLAGS, { dislike_button_verbose_feedback: true, enable_ko_search: null }).expect(200);
      expect(merged.body).toEqual({ ...NO_FLAGS, dislike_button_verbose_feedback: true, show_auto_model_selection: false });
      await api.post(FLAGS, {}).expect(200, merged.body);

      await api.post(MODE, { is_insider_enabled: false }).expect(200, { is_insider: true, is_insider_enabled: false });
      await api.get(FLAGS).expect(200, NO_FLAGS);
      const { rows } = await db.query('SELECT flags FROM insider_config.insider_status WHERE user_id = $1', [userId]);
      expect(rows[0].flags).toEqual({ dislike_button_verbose_feedback: true, show_auto_model_selection: false, enable_ko_search: null });
    });

    it('keeps can_create_invite in force with insider mode off: the insider can then create invites', async () => {
      const { api, userId } = await signedIn();
      await api.post('/api/v1/invites', { max_uses: 1 }).expect(403);
      await db.query('INSERT INTO insider_config.insider_status (user_id, is_insider) VALUES ($1, true)', [userId]);
      await api.post(FLAGS, { can_create_invite: true }).expect(200, { ...NO_FLAGS, can_create_invite: true });
      await api.get(FLAGS).expect(200, { ...NO_FLAGS, can_create_invite: true });
      await api.post('/api/v1/invites', { max_uses: 1 }).expect(201);
    });

    it('applies a flag to the very next reply: the chat service forgets the flags it kept when they change', async () => {
      const { api, userId } = await signedIn();
      await db.query('INSERT INTO insider_config.insider_status (user_id, is_insider) VALUES ($1, true)', [userId]);
      await api.post(MODE, { is_insider_enabled: true }).expect(200);
      const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
      const send = async (content: string) => {
        const { status, events } = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content });
        expect(status).toBe(200);
        return events.find((e) => e.event === 'rewritten_query')?.data;
      };
      expect(await send('First, with the flag unset')).toBeUndefined();
      await api.post(FLAGS, { show_rewritten_user_message: true }).expect(200);
      expect(await send('Now   show   it')).toEqual({ text: 'Now show it' });
      await api.post(FLAGS, { show_rewritten_user_message: false }).expect(200);
      expect(await send('And hide it again')).toBeUndefined();
      await api.post(FLAGS, { show_rewritten_user_message: true }).expect(200);
      await api.post(MODE, { is_insider_enabled: false }).expect(200);
      expect(await send('Insider mode off: no flags')).toBeUndefined();
    });

    it('follows the operator commands grant-insider and revoke-insider', async () => {
      const { api, userId } = await signedIn();
      await api.post(MODE, { is_insider_enabled: true }).expect(403);

      const granted = await operator('grant-insider', userId);
      expect(granted).toMatchObject({ code: 0, stdout: `${userId} is now an insider.\n` });
      expect((await operator('grant-insider', userId)).stdout).toBe(`${userId} was already an insider.\n`);
      await api.get(MODE).expect(200, { is_insider: true, is_insider_enabled: false });
      await api.post(MODE, { is_insider_enabled: true }).expect(200, { is_insider: true, is_insider_enabled: true });
      await api.post(FLAGS, { show_rewritten_user_message: true }).expect(200, { ...NO_FLAGS, show_rewritten_user_message: true });

      const revoked = await operator('revoke-insider', userId);
      expect(revoked).toMatchObject({ code: 0, stdout: `${userId} is no longer an insider; insider mode is off.\n` });
      await api.get(MODE).expect(200, { is_insider: false, is_insider_enabled: false });
      await api.get(FLAGS).expect(403, INSIDERS_ONLY_FLAGS);
      await api.post(MODE, { is_insider_enabled: true }).expect(403, INSIDERS_ONLY_MODE);

      const usage = await operator('grant-insider', 'not-a-user');
      expect(usage.code).toBe(64);
      expect(usage.stderr).toContain('Not a user id: not-a-user');
      expect((await operator('revoke-insider')).code).toBe(64);
    }, 60_000);
  });

  describe('AI voice settings', () => {
    it('gives a guest the defaults and lets them change them, field by field', async () => {
      const guest = client();
      await guest.guest();
      await guest.get(VOICE).expect(200, DEFAULT_VOICE);
      await guest.post(VOICE, { min_chars: 250 }).expect(200, { ...DEFAULT_VOICE, min_chars: 250 });
      await guest
        .post(VOICE, { voice: 'verse', speed: 1.25, auto_read_aloud: true })
        .expect(200, { ...DEFAULT_VOICE, min_chars: 250, voice: 'verse', speed: 1.25, auto_read_aloud: true });
      await guest.post(VOICE, {}).expect(200, { ...DEFAULT_VOICE, min_chars: 250, voice: 'verse', speed: 1.25, auto_read_aloud: true });
      await guest.get(VOICE).expect(200, { ...DEFAULT_VOICE, min_chars: 250, voice: 'verse', speed: 1.25, auto_read_aloud: true });
      // Another user is untouched.
      const other = client();
      await other.guest();
      await other.get(VOICE).expect(200, DEFAULT_VOICE);
    });

    it('refuses wrong values and wrong combinations whole, leaving the stored settings unchanged', async () => {
      const { api, userId } = await signedIn();
      const saved = (await api.post(VOICE, { voice: 'ballad', min_chars: 300 }).expect(200)).body;
      for (const [body, field] of [
        [{ min_chars: 19 }, 'min_chars'],
        [{ min_chars: 2001 }, 'min_chars'],
        [{ min_chars: 150.5 }, 'min_chars'],
        [{ speed: 0.1, min_chars: 500 }, 'speed'],
        [{ speed: 'fast' }, 'speed'],
        [{ voice: 'robot', min_chars: 500 }, 'voice'],
        [{ openai_model: 'gpt-2' }, 'openai_model'],
        [{ auto_read_aloud: 'yes', min_chars: 500 }, 'auto_read_aloud'],
        [{ min_chars: 500, pitch: 3 }, 'pitch'],
      ] as const) {
        const res = await api.post(VOICE, body).expect(422);
        expect(res.body.detail).toContain(field);
      }
      // Right one by one, wrong together: ballad is not a voice of tts-1. Checked after merging.
      const combined = await api.post(VOICE, { openai_model: 'tts-1', min_chars: 500 }).expect(422);
      expect(combined.body).toEqual({ detail: 'voice: ballad is not available with tts-1' });
      await api.get(VOICE).expect(200, saved);
      expect(await voiceRow(userId)).toEqual(saved);
      await api.post(VOICE, { openai_model: 'tts-1', voice: 'nova' }).expect(200, { ...saved, openai_model: 'tts-1', voice: 'nova' });
    });

    it('puts the voice settings and insider row in the export, and deletes them with the account', async () => {
      const { api, userId } = await signedIn();
      const settings = (await api.post(VOICE, { min_chars: 400, auto_read_aloud: true }).expect(200)).body;
      await operator('grant-insider', userId);
      await api.post(FLAGS, { enable_ko_search: true }).expect(200);
      const exported = await binary(api.get('/api/v1/users/me/export')).expect(200);
      const files = unzipSync(new Uint8Array(exported.body as Buffer));
      const part = JSON.parse(strFromU8(files['insider-config.json']));
      expect(part.voice_config).toEqual([{ user_id: userId, config: settings, updated_at: expect.any(String) }]);
      expect(part.insider_status).toEqual([
        expect.objectContaining({ user_id: userId, is_insider: true, is_insider_enabled: false, flags: { enable_ko_search: true } }),
      ]);

      await api.delete('/api/v1/users/me').expect(204);
      for (const table of ['voice_config', 'insider_status']) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM insider_config.${table} WHERE user_id = $1`, [userId]);
        expect(rows[0].n).toBe(0);
      }
    }, 60_000);
  });

  it('declares the routes in the API description', async () => {
    const doc = (await client().http.get('/api/docs/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths[FLAGS])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths[VOICE].post.tags).toEqual(['user_config']);
  });
});
