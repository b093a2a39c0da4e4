import { wavOf } from '@app/platform';
import type { Browser, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { guestToken, launchBrowser } from './product';

/** Chromium with a fake microphone playing `wav` (in a loop) and audio allowed to play without a click. */
export function launchVoiceBrowser(wav?: string): Promise<Browser> {
  return launchBrowser([
    '--autoplay-policy=no-user-gesture-required',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    ...(wav ? [`--use-file-for-fake-audio-capture=${wav}`] : []),
  ]);
}

/** A 16-bit PCM WAV from samples, so a spoken sentence can be followed by silence (the end of an utterance). */
export function writeWav(path: string, pcm: Buffer, sampleRate: number, silenceSeconds: number): void {
  const silence = Buffer.alloc(Math.round(sampleRate * silenceSeconds) * 2);
  const data = Buffer.concat([silence.subarray(0, sampleRate), pcm, silence]);
  writeFileSync(path, wavOf(data, sampleRate));
}

export type VoiceProbe = {
  /** Each AudioBufferSourceNode started: page time, context time and length. */
  starts: { at: number; when: number; duration: number }[];
  /** While audio played: the microphone tracks' enabled state, sampled every 10 ms. */
  micWhilePlaying: boolean[];
  /** When a reply was streaming (the draft marked aria-busy) and when it stopped. */
  streamStart: number | null;
  streamEnd: number | null;
};

/**
 * Instruments the page before its scripts run: AudioBufferSourceNode.start is counted, microphone
 * tracks are kept, and every 10 ms the mic's state is recorded while any started audio is playing.
 */
export async function instrumentVoice(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const probe = { starts: [], micWhilePlaying: [], streamStart: null, streamEnd: null } as unknown as {
      starts: { at: number; when: number; duration: number; ctx: BaseAudioContext }[];
      micWhilePlaying: boolean[];
      streamStart: number | null;
      streamEnd: number | null;
    };
    const tracks: MediaStreamTrack[] = [];
    (window as unknown as { __probe: unknown }).__probe = probe;
    const start = AudioBufferSourceNode.prototype.start;
    AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, when?: number, ...rest: number[]) {
      probe.starts.push({ at: performance.now(), when: when ?? 0, duration: this.buffer?.duration ?? 0, ctx: this.context });
      return start.call(this, when, ...rest);
    } as typeof start;
    if (navigator.mediaDevices) {
      const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = async (constraints) => {
        const stream = await getUserMedia(constraints);
        tracks.push(...stream.getAudioTracks());
        return stream;
      };
    }
    setInterval(() => {
      const playing = probe.starts.some((s) => s.ctx.currentTime >= s.when && s.ctx.currentTime < s.when + s.duration);
      const live = tracks.filter((t) => t.readyState === 'live');
      if (playing && live.length > 0) probe.micWhilePlaying.push(live.some((t) => t.enabled));
      const busy = !!document.querySelector('article[aria-busy="true"]');
      if (busy && probe.streamStart === null) probe.streamStart = performance.now();
      if (!busy && probe.streamStart !== null && probe.streamEnd === null) probe.streamEnd = performance.now();
    }, 10);
  });
}

export const readProbe = (page: Page): Promise<VoiceProbe> =>
  page.evaluate(() => {
    const p = (window as unknown as { __probe: VoiceProbe & { starts: { at: number; when: number; duration: number }[] } }).__probe;
    return {
      starts: p.starts.map(({ at, when, duration }) => ({ at, when, duration })),
      micWhilePlaying: [...p.micWhilePlaying],
      streamStart: p.streamStart,
      streamEnd: p.streamEnd,
    };
  });

/**
 * Waits until the product's offline voice is warm: its engine warms up in the background after
 * start (WebAssembly runs as baseline code until V8 has optimised the synthesiser's hot paths, 2-3 s per
 * sentence cold on 2 cores, about 100 ms warm). A person needs a few seconds to reach the settings;
 * a test does not, so it waits for what a person would find. Each try speaks a new text (the cache
 * would answer a repeated one at once).
 */
export async function untilVoiceWarm(productUrl: string, fastEnoughMs = 400, timeoutMs = 60_000): Promise<void> {
  const token = await guestToken(productUrl);
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt += 1) {
    const started = Date.now();
    const res = await fetch(`${productUrl}/api/v1/text-to-speech/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `This is warm-up sentence number ${attempt}, spoken to check the voice is ready.`, format: 'pcm' }),
    });
    await res.arrayBuffer();
    if (res.status === 200 && Date.now() - started < fastEnoughMs) return;
    if (Date.now() > deadline) throw new Error(`The offline voice was still slow after ${timeoutMs} ms (last: ${Date.now() - started} ms)`);
    await new Promise((resolve) => setTimeout(resolve, res.status === 429 ? 5_000 : 250));
  }
}
