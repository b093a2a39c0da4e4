import { useEffect, useRef } from 'react';
import { replyStore } from '../../chat/state/replyStore';
import { useStore } from '../../common/state/createStore';
import { voiceModeStore } from '../state/speechStore';
import { loadedReadAloud, loadedVoiceMode, loadReadAloud, stopSpeech } from '../state/voiceModules';
import { useVoiceConfig } from './voiceConfig';

let mounted = 0;

const stopAll = () => {
  stopSpeech();
  loadedVoiceMode()?.voiceMode.stop();
};

/**
 * Auto read-aloud (spec section 4): when the user's AI voice config says so (or voice mode is on),
 * each new reply is spoken while it streams; a reply present on the first render is not. Turning it
 * off stops the playback and clears the list of replies already spoken. Speech (and voice mode)
 * stops when another conversation opens or the chat is left. The engine loads when first needed.
 * Used by the chat page, above the conversation view (which is mounted again for each conversation).
 */
export function useAutoReadAloud(chatId: string | undefined): void {
  const config = useVoiceConfig();
  const voiceMode = useStore(voiceModeStore, (s) => s.phase !== 'off');
  const enabled = !!config?.auto_read_aloud || voiceMode;
  const configRef = useRef(config);
  configRef.current = config;

  useEffect(() => loadedReadAloud()?.readAloud.configure(config), [config]);

  // Another conversation (not the new one a first message creates), or leaving the chat: whatever plays stops.
  const shown = useRef(chatId);
  useEffect(() => {
    if (shown.current !== undefined && shown.current !== chatId) stopAll();
    shown.current = chatId;
  }, [chatId]);
  // Leaving the chat (not the chat page mounted again for a new conversation's address) ends it too.
  useEffect(() => {
    mounted += 1;
    return () => {
      mounted -= 1;
      setTimeout(() => {
        if (mounted === 0) stopAll();
      }, 0);
    };
  }, []);

  // A new message being sent stops what is read (auto read-aloud then follows the new reply).
  useEffect(() => {
    let before = replyStore.get().draft;
    return replyStore.subscribe(() => {
      const draft = replyStore.get().draft;
      const fresh = !!draft && draft.streaming && draft.id !== before?.id;
      before = draft;
      const reader = loadedReadAloud()?.readAloud;
      if (fresh && reader && !reader.isSpeaking(`draft:${draft.id}`)) reader.stop();
    });
  }, []);

  useEffect(() => {
    if (!enabled) return stopSpeech();
    // A finished reply on screen at the first render is not spoken (one still streaming is).
    const current = replyStore.get().draft;
    const initial = current && !current.streaming ? current : null;
    let live = true;
    let off: (() => void) | undefined;
    void loadReadAloud().then(({ followReplies }) => {
      if (live) off = followReplies(replyStore, initial, () => configRef.current);
    });
    return () => {
      live = false;
      off?.();
    };
  }, [enabled]);
}
