import { describe, expect, it } from 'vitest';
import { effectiveMuted, initialVoiceMode, voiceModeLabel, voiceModeReducer, type VoiceModeEvent, type VoiceModeState } from './micState';

const run = (...events: VoiceModeEvent[]) => events.reduce<VoiceModeState>(voiceModeReducer, initialVoiceMode);

describe('voice mode and the microphone (spec 4, Microphone)', () => {
  it('goes listening → transcribing → thinking → speaking → listening, the mic open only while listening', () => {
    const seen: [string, boolean][] = [];
    let state = initialVoiceMode;
    for (const event of [
      { type: 'start' },
      { type: 'ready' },
      { type: 'utterance-end' },
      { type: 'transcribed', text: 'hello' },
      { type: 'reply-speaking' },
      { type: 'reply-done' },
    ] as VoiceModeEvent[]) {
      state = voiceModeReducer(state, event);
      seen.push([state.phase, effectiveMuted(state)]);
    }
    expect(seen).toEqual([
      ['starting', true],
      ['listening', false],
      ['transcribing', true],
      ['thinking', true],
      ['speaking', true],
      ['listening', false],
    ]);
  });

  it('effective mute = the user muted OR the system mutes during speech', () => {
    const listening = run({ type: 'start' }, { type: 'ready' });
    expect(effectiveMuted(listening)).toBe(false);
    expect(effectiveMuted(listening, true)).toBe(true);
    const muted = voiceModeReducer(listening, { type: 'toggle-mute' });
    expect(muted.intent).toBe('muted');
    expect(effectiveMuted(muted)).toBe(true);
    expect(voiceModeLabel(muted)).toBe('Muted');
    // A muted user's utterance does not end (nothing recorded); unmuting opens the mic again.
    expect(voiceModeReducer(muted, { type: 'utterance-end' }).phase).toBe('listening');
    expect(effectiveMuted(voiceModeReducer(muted, { type: 'toggle-mute' }))).toBe(false);
  });

  it('barge-in stops the speaking and opens the microphone', () => {
    const speaking = run(
      { type: 'start' },
      { type: 'ready' },
      { type: 'utterance-end' },
      { type: 'transcribed', text: 'hi' },
      { type: 'reply-speaking' },
    );
    expect(voiceModeLabel(speaking)).toMatch(/Speaking/);
    const after = voiceModeReducer(speaking, { type: 'barge-in' });
    expect(after.phase).toBe('listening');
    expect(effectiveMuted(after)).toBe(false);
  });

  it('an empty transcription listens again with a note; a failure to start turns it off; stop resets', () => {
    const empty = run({ type: 'start' }, { type: 'ready' }, { type: 'utterance-end' }, { type: 'transcribed', text: '  ' });
    expect(empty).toMatchObject({ phase: 'listening', error: 'Nothing was heard. Try again.' });
    expect(run({ type: 'start' }, { type: 'fail', error: 'blocked' })).toMatchObject({ phase: 'off', error: 'blocked' });
    expect(run({ type: 'start' }, { type: 'ready' }, { type: 'toggle-mute' }, { type: 'stop' })).toEqual(initialVoiceMode);
  });
});
