import { FakeOpenAI, parseWav, rms } from '@app/testing';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { axeViolations, type AxeViolation } from './support/axe';
import { guestToken, screenshot, startProduct, VIEWPORTS, type Product } from './support/product';
import { instrumentVoice, launchVoiceBrowser, readProbe, untilVoiceWarm, writeWav } from './support/voice';
import { until } from '../support/until';
import { freePort } from '../support/processes';

/** A recording as every whisper server reads it without transcoding: a WAV, 16 kHz, mono, 16-bit, with speech in it. */
function expectWhisperReady(upload: { filename: string | null; contentType: string | null; bytes: Buffer }): void {
  expect(upload).toMatchObject({ filename: 'speech.wav', contentType: 'audio/wav' });
  const wav = parseWav(upload.bytes);
  expect(wav).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16 });
  expect(wav.samples.length / 16_000).toBeGreaterThan(1);
  expect(rms(wav.samples)).toBeGreaterThan(100);
}

/** An HTTP server on `port` that passes every request on to `target` (a whisper server started where the product looks). */
async function forwardTo(port: number, target: string): Promise<Server> {
  const server = createServer((request, response) => {
    const upstream = httpRequest(`${target}${request.url}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/**
 * Issue 14 in a browser: auto read-aloud speaks a reply while it still streams and plays every
 * chunk; voice mode hears a spoken question through a fake microphone (a WAV the offline engine
 * spoke), the transcription fake answers, the reply is spoken, and the microphone stays disabled
 * the whole time the assistant's audio plays; with `npm start`'s defaults a guest who turns on auto
 * read-aloud in the settings hears the reply begin before it has finished. axe-core checks the
 * voice controls (voice-mode bar, read-aloud controls, the settings' voice previews) in both themes,
 * and screenshots show them on a phone and a wide screen.
 */
describe('voice in a browser', () => {
  const QUESTION = 'What is the capital of France?';
  let product: Product;
  let openai: FakeOpenAI;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    openai = new FakeOpenAI();
    await openai.start();
    openai.setDefaultReply('audio.transcriptions', () => ({ text: QUESTION }));
    // Offline chat and offline voice; transcription by the fake (as an OpenAI-compatible server).
    product = await startProduct({
      OFFLINE_TOKEN_DELAY_MS: '25',
      STT_ENGINE: 'openai-compatible',
      STT_BASE_URL: openai.baseURL,
      STT_API_KEY: 'test',
    });
    // The microphone's input: the question, spoken by the product's offline engine, then silence.
    dir = mkdtempSync(join(tmpdir(), 'voice-browser-'));
    const token = await guestToken(product.url);
    const res = await fetch(`${product.url}/api/v1/text-to-speech/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: QUESTION, format: 'pcm' }),
    });
    expect(res.status).toBe(200);
    writeWav(join(dir, 'question.wav'), Buffer.from(await res.arrayBuffer()), 24_000, 3);
    browser = await launchVoiceBrowser(join(dir, 'question.wav'));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await openai?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const setVoice = (page: Page, patch: Record<string, unknown>) =>
    page.evaluate(async (body) => {
      const res = await fetch('/api/v1/user_config/ai-voice', {
        method: 'POST',
        headers: { authorization: `Bearer ${localStorage.getItem('access_token')}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return res.status;
    }, patch);

  /** What axe found on the voice controls, per screen and theme (all asserted empty at the end). */
  const axe: Record<string, AxeViolation[]> = {};

  async function openPage(
    url: string,
    path: string,
    options: { viewport?: { width: number; height: number }; light?: boolean } = {},
  ): Promise<Page> {
    // bypassCSP: axe-core is added to the page as a script.
    const context = await browser.newContext({ baseURL: url, viewport: options.viewport ?? VIEWPORTS.wide, bypassCSP: true });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.addInitScript((light) => {
      localStorage.setItem('firstTimeModalShown', 'true');
      if (light) localStorage.setItem('isDarkMode', 'false');
    }, !!options.light);
    await instrumentVoice(page);
    await page.goto(path);
    return page;
  }

  async function openChat(options: { viewport?: { width: number; height: number }; light?: boolean } = {}): Promise<Page> {
    const page = await openPage(product.url, '/chat', options);
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    return page;
  }

  /** Sends a message and waits until the reply has streamed and its speech has started and ended. */
  async function askAndListen(page: Page, question: string) {
    const speech: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/text-to-speech/file') && response.request().method() === 'POST') speech.push(response.status());
    });
    await page.getByLabel('Message', { exact: true }).fill(question);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('button', { name: 'Send message' }).waitFor({ timeout: 60_000 });
    const probe = await until('the reply has streamed and the first chunk started', async () => {
      const p = await readProbe(page);
      return p.streamEnd !== null && p.starts.length > 0 ? p : null;
    });
    return { speech, probe };
  }

  /** The last reply (named after whoever answered: the assistant, or the model that did). */
  const assistantReply = (page: Page) => page.locator('article.message--assistant:not(.message--draft)').last();

  /** Whether the reply is being read: it offers to pause (enabled while audio plays). */
  const playing = async (reply: Locator) => {
    const pause = reply.getByRole('button', { name: 'Pause reading' });
    return (await pause.count()) > 0 && (await pause.isEnabled());
  };
  /** Read to its end: the reply offers to read it aloud again. */
  const readToEnd = async (reply: Locator) => (await reply.getByRole('button', { name: 'Read aloud' }).count()) > 0;

  it('auto read-aloud starts speaking before the reply has finished streaming and plays every chunk', async () => {
    const page = await openChat();
    expect(await setVoice(page, { auto_read_aloud: true, min_chars: 20 })).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();

    const { speech, probe } = await askAndListen(page, 'Tell me about yourself in a few sentences.');
    // Speech began while the reply was still streaming.
    expect(probe.starts[0]!.at).toBeLessThan(probe.streamEnd!);
    // While it speaks, the reply offers pause and stop (axe checks them), then every chunk fetched is played, in order, none refused.
    const reply = assistantReply(page);
    if (await playing(reply)) {
      await reply.getByRole('button', { name: 'Stop reading' }).waitFor();
      axe['read-aloud-playing-dark'] = await axeViolations(page, '.message__actions');
      await screenshot(page, 'voice-read-aloud-playing');
    }
    await until('every chunk played', () => readToEnd(reply), 60_000);
    const final = await readProbe(page);
    expect(speech.length).toBeGreaterThan(1);
    expect(speech.every((status) => status === 200)).toBe(true);
    expect(final.starts).toHaveLength(speech.length);
    // At least 50 ms between two chunks.
    for (let i = 1; i < final.starts.length; i += 1) {
      const previous = final.starts[i - 1]!;
      expect(final.starts[i]!.when - (previous.when + previous.duration)).toBeGreaterThanOrEqual(0.0499);
    }
    // Read to its end, the reply can be read again.
    await reply.getByRole('button', { name: 'Read aloud' }).waitFor();
    axe['read-aloud-idle-dark'] = await axeViolations(page, '.message__actions');
    await screenshot(page, 'voice-auto-read-aloud');
    await page.context().close();
  }, 120_000);

  it('voice mode: the spoken question is transcribed and sent, the reply spoken, the microphone off while it plays', async () => {
    const page = await openChat();
    await page.getByRole('button', { name: 'Voice mode' }).click();
    const status = page.getByRole('status').filter({ hasText: /Listening|Transcribing|Thinking|Speaking/ });
    await status.first().waitFor();
    axe['voice-mode-listening-dark'] = await axeViolations(page, '.chat__composer');
    // The question heard, transcribed by the fake, sent as the user's message.
    await page.getByRole('article', { name: 'You said' }).getByText(QUESTION).waitFor({ timeout: 30_000 });
    expect(openai.requests('audio.transcriptions').length).toBeGreaterThanOrEqual(1);
    // What the browser recorded reached the recogniser as it reads it: a 16 kHz mono WAV (no transcoding).
    expectWhisperReady(openai.requests('audio.transcriptions')[0]!.upload!);
    // The reply is spoken (the bar says so), then the microphone listens again.
    await until('the reply spoken', async () => (await readProbe(page)).starts.length > 0, 60_000);
    await page.getByRole('status').getByText('Speaking… tap to interrupt').waitFor();
    axe['voice-mode-speaking-dark'] = await axeViolations(page, '.chat__composer');
    await screenshot(page, 'voice-mode-speaking');
    await page.getByRole('status').getByText('Listening…').waitFor({ timeout: 60_000 });
    const probe = await readProbe(page);
    expect(probe.micWhilePlaying.length).toBeGreaterThan(5);
    expect(probe.micWhilePlaying.every((enabled) => enabled === false)).toBe(true);
    // One conversation: the reply came in the conversation the question opened.
    expect(await page.getByRole('article', { name: 'You said' }).count()).toBeGreaterThanOrEqual(1);
    await screenshot(page, 'voice-mode');
    await page.getByRole('button', { name: 'Voice mode' }).click();
    await page.context().close();
  }, 120_000);

  it('the voice controls pass axe in the light theme and look deliberate on a phone and a wide screen', async () => {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const page = await openChat({ viewport, light: name === 'narrow' });
      const theme = name === 'narrow' ? 'light' : 'dark';
      await page.getByRole('button', { name: 'Voice mode' }).click();
      await page.getByRole('status').getByText('Listening…').waitFor();
      // The microphone is muted by the user: the bar shows it.
      await page.getByRole('button', { name: 'Mute the microphone' }).click();
      await page.getByRole('status').getByText('Muted').waitFor();
      if (theme === 'light') axe['voice-mode-muted-light'] = await axeViolations(page, '.chat__composer');
      await screenshot(page, `voice-mode-bar-${name}`);
      await page.getByRole('button', { name: 'Voice mode' }).click();
      await page.getByRole('status').getByText('Muted').waitFor({ state: 'detached' });
      // The settings' voices with their previews.
      await page.goto('/settings');
      const voices = page.getByRole('region', { name: 'Voices' });
      await voices
        .getByRole('button', { name: /^Preview / })
        .first()
        .waitFor();
      await voices
        .getByRole('button', { name: /^Preview / })
        .first()
        .click();
      await voices.getByRole('button', { name: /^Stop the preview of / }).waitFor();
      axe[`settings-voices-${theme}`] = await axeViolations(page, '.settings');
      await voices.scrollIntoViewIfNeeded();
      await screenshot(page, `voice-settings-${name}`);
      await page.context().close();
    }
    // The other theme of each: the settings' previews and the muted bar.
    const light = await openPage(product.url, '/settings', { light: true });
    await light
      .getByRole('region', { name: 'Voices' })
      .getByRole('button', { name: /^Preview / })
      .first()
      .waitFor();
    axe['settings-voices-light-wide'] = await axeViolations(light, '.settings');
    await light.goto('/chat');
    await light.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await light.getByRole('button', { name: 'Voice mode' }).click();
    await light.getByRole('status').getByText('Listening…').waitFor();
    axe['voice-mode-listening-light'] = await axeViolations(light, '.chat__composer');
    await light.getByRole('button', { name: 'Voice mode' }).click();
    await light.context().close();
    const dark = await openChat({ viewport: VIEWPORTS.narrow });
    await dark.getByRole('button', { name: 'Voice mode' }).click();
    await dark.getByRole('button', { name: 'Mute the microphone' }).click();
    await dark.getByRole('status').getByText('Muted').waitFor();
    axe['voice-mode-muted-dark'] = await axeViolations(dark, '.chat__composer');
    await dark.getByRole('button', { name: 'Voice mode' }).click();
    await dark.context().close();
    // The read-aloud controls of a finished reply in the light theme.
    const page = await openChat({ light: true });
    await page.getByLabel('Message', { exact: true }).fill('Hello');
    await page.getByRole('button', { name: 'Send message' }).click();
    const reply = assistantReply(page);
    await reply.getByRole('button', { name: 'Read aloud' }).waitFor({ timeout: 60_000 });
    await reply.getByRole('button', { name: 'Read aloud' }).click();
    await reply.getByRole('button', { name: 'Stop reading' }).waitFor();
    axe['read-aloud-playing-light'] = await axeViolations(page, '.message__actions');
    await reply.getByRole('button', { name: 'Stop reading' }).click();
    await reply.getByRole('button', { name: 'Read aloud' }).waitFor();
    axe['read-aloud-idle-light'] = await axeViolations(page, '.message__actions');
    await page.context().close();
    console.log('axe on the voice controls', JSON.stringify(axe, null, 2));
    expect(Object.keys(axe).length).toBeGreaterThanOrEqual(8);
    expect(Object.entries(axe).filter(([, v]) => v.length > 0)).toEqual([]);
  }, 180_000);

  describe("with npm start's defaults (offline engine, no keys, no speech-to-text server yet)", () => {
    let bare: Product;
    let sttPort: number;
    let whisper: Server | null = null;
    beforeAll(async () => {
      // Where the product looks for a local whisper server (the default is 127.0.0.1:8178; a free port here).
      sttPort = await freePort();
      bare = await startProduct({ STT_LOCAL_URL: `http://127.0.0.1:${sttPort}/v1` });
      await untilVoiceWarm(bare.url);
    }, 120_000);
    afterAll(async () => {
      await bare?.stop();
      await new Promise((resolve) => (whisper ? whisper.close(resolve) : resolve(undefined)));
    });

    it('a guest who turns on auto read-aloud in the settings hears the reply begin before it has finished streaming', async () => {
      const page = await openPage(bare.url, '/chat');
      await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      await page.goto('/settings');
      const automatic = page.getByRole('switch', { name: 'Read replies aloud automatically' });
      await automatic.click();
      await until('auto read-aloud saved', async () => (await automatic.isChecked()) && !(await page.getByLabel('Saving').count()));
      await page.goto('/chat');
      await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      const { speech, probe } = await askAndListen(page, 'What can you do for me?');
      expect(speech[0]).toBe(200);
      console.log(
        'npm start defaults: the reply streamed for',
        probe.streamEnd! - probe.streamStart!,
        'ms; speech began after',
        probe.starts[0]!.at - probe.streamStart!,
        'ms',
      );
      expect(probe.starts[0]!.at).toBeLessThan(probe.streamEnd!);
      await page.context().close();
    }, 120_000);

    it('tells the one command that starts a speech-to-text server; once it answers, voice mode works without a restart', async () => {
      const page = await openPage(bare.url, '/chat');
      const button = page.getByRole('button', { name: 'Voice mode' });
      await until('the button says why', async () => (await button.getAttribute('aria-disabled')) === 'true');
      // aria-disabled (not disabled): it stays focusable and clickable, and says why, with the command.
      await button.click({ force: true });
      await page.getByRole('note').getByText('needs a speech-to-text server').waitFor();
      const command = await page.getByRole('note').getByLabel('Command to start speech-to-text').textContent();
      expect(command).toMatch(/^docker run .*-p 127\.0\.0\.1:8178:8080 ghcr\.io\/ggml-org\/whisper\.cpp:main-[0-9a-f]{40} /);
      expect(command).toContain('--inference-path /v1/audio/transcriptions');
      axe['voice-mode-unavailable-dark'] = await axeViolations(page, '.chat__composer');
      expect(axe['voice-mode-unavailable-dark']).toEqual([]);
      await screenshot(page, 'voice-mode-unavailable');

      // The operator runs it: a whisper server answers where the product looks (the transcription fake behind it).
      whisper = await forwardTo(sttPort, openai.url);
      await until('voice mode turns on by itself', async () => (await button.getAttribute('aria-disabled')) === null, 30_000);
      const before = openai.requests('audio.transcriptions').length;
      await button.click();
      await page.getByRole('article', { name: 'You said' }).getByText(QUESTION).waitFor({ timeout: 30_000 });
      const upload = openai.requests('audio.transcriptions')[before]!.upload!;
      expectWhisperReady(upload);
      await button.click();
      await page.context().close();
    }, 120_000);
  });
});
