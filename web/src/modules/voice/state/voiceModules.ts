/*
 * The read-aloud and voice-mode controllers, each loaded on first use (they are not in the first
 * load). Kept apart from the stores they publish to, so that no module imports its own importer.
 */

type VoiceModules = { readAloud: typeof import('./readAloud'); voiceMode: typeof import('./voiceMode') };
let readAloudModule: VoiceModules['readAloud'] | null = null;
let voiceModeModule: VoiceModules['voiceMode'] | null = null;

/** The read-aloud controller, loaded on first use. */
export async function loadReadAloud(): Promise<VoiceModules['readAloud']> {
  readAloudModule ??= await import('./readAloud');
  return readAloudModule;
}

/** The read-aloud controller if it was ever loaded (nothing plays otherwise). */
export const loadedReadAloud = () => readAloudModule;

export async function loadVoiceMode(): Promise<VoiceModules['voiceMode']> {
  voiceModeModule ??= await import('./voiceMode');
  return voiceModeModule;
}

export const loadedVoiceMode = () => voiceModeModule;

/** Stops any speech (a new message, another conversation, leaving the page). */
export function stopSpeech(): void {
  loadedReadAloud()?.readAloud.stop();
}
