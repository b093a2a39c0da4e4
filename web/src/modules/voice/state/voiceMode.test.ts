import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./readAloud', () => ({ readAloud: { engine: { init: vi.fn() }, stop: vi.fn() } }));
vi.mock('../api/speechApi', () => ({ transcribe: vi.fn() }));

import { speechStore, voiceModeStore } from './speechStore';
import { voiceMode } from './voiceMode';

/** A microphone whose level the test sets, and an audio graph that records nothing real. */
class FakeTrack {
  enabled = true;
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

let level = 0;
let track: FakeTrack;
let processors: { onaudioprocess: unknown }[] = [];

class FakeAudioContext {
  sampleRate = 48_000;
  destination = {};
  createAnalyser() {
    return {
      fftSize: 1024,
      getFloatTimeDomainData: (samples: Float32Array) => samples.fill(level),
    };
  }
  createMediaStreamSource() {
    return { connect: vi.fn(), disconnect: vi.fn() };
  }
  createScriptProcessor() {
    const processor = { onaudioprocess: null as unknown, connect: vi.fn(), disconnect: vi.fn() };
    processors.push(processor);
    return processor;
  }
  createGain() {
    return { gain: { value: 1 }, connect: vi.fn(), disconnect: vi.fn() };
  }
  close() {
    return Promise.resolve();
  }
}

const state = () => voiceModeStore.get();

describe('voice mode: the microphone follows the mute state', () => {
  const send = vi.fn();

  beforeEach(() => {
    vi.useFakeTimers();
    level = 0;
    processors = [];
    track = new FakeTrack();
    const stream = { getAudioTracks: () => [track], getTracks: () => [track] };
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: vi.fn(async () => stream) } });
    Object.assign(window, { AudioContext: FakeAudioContext });
    speechStore.set({ session: 0, keys: [], state: 'idle', complete: true });
    send.mockReset();
  });

  afterEach(() => {
    voiceMode.stop();
    vi.useRealTimers();
  });

  it('listens with the microphone open once started, and releases it when stopped', async () => {
    await voiceMode.start({ send });
    expect(state().phase).toBe('listening');
    expect(track.enabled).toBe(true);
    expect(processors).toHaveLength(1);

    voiceMode.stop();
    expect(state().phase).toBe('off');
    expect(track.stopped).toBe(true);
  });

  it("closes the microphone while the user's mute is on, and opens it again", async () => {
    await voiceMode.start({ send });
    voiceMode.toggleMute();
    expect(state().intent).toBe('muted');
    expect(track.enabled).toBe(false);

    voiceMode.toggleMute();
    expect(track.enabled).toBe(true);
  });

  it('closes the microphone while the assistant speaks, and opens it once the reply was spoken', async () => {
    voiceMode.transcribe = vi.fn(async () => 'What is the weather?');
    await voiceMode.start({ send });
    level = 0.5;
    vi.advanceTimersByTime(100);
    level = 0;
    // A second of silence after speech ends the utterance: it is transcribed and sent.
    await vi.advanceTimersByTimeAsync(1_200);
    expect(send).toHaveBeenCalledWith('What is the weather?');
    expect(state().phase).toBe('thinking');
    expect(track.enabled).toBe(false);

    speechStore.set({ session: 1, keys: ['reply'], state: 'playing', complete: false });
    expect(state().phase).toBe('speaking');
    expect(track.enabled).toBe(false);

    speechStore.set({ session: 1, keys: ['reply'], state: 'idle', complete: true });
    expect(state().phase).toBe('listening');
    expect(track.enabled).toBe(true);
  });

  it('keeps the microphone closed while the assistant speaks even when the user unmutes', async () => {
    await voiceMode.start({ send });
    voiceMode.toggleMute();
    speechStore.set({ session: 0, keys: ['read-aloud'], state: 'playing', complete: false });
    voiceMode.toggleMute();
    expect(state().intent).toBe('active');
    expect(track.enabled).toBe(false);
    speechStore.set({ session: 0, keys: ['read-aloud'], state: 'idle', complete: true });
    expect(track.enabled).toBe(true);
  });

  it('says why when the microphone is refused, and stays off', async () => {
    const refused = Object.assign(new Error('denied'), { name: 'NotAllowedError' });
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => Promise.reject(refused)) },
    });
    await voiceMode.start({ send });
    expect(state()).toMatchObject({ phase: 'off' });
    expect(state().error).toMatch(/microphone is blocked/);
  });
});
