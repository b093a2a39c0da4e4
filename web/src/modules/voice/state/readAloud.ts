import type { ReplyDraft } from '../../chat/state/replyStore';
import type { Store } from '../../common/state/createStore';
import { SpeechChunker } from '../utils/chunker';
import { TTS } from '../utils/constants';
import { SpokenText } from '../utils/spokenText';
import { AudioEngine, type VoiceChoice } from './audioEngine';
import { speechStore } from './speechStore';

export type ReadAloudConfig = VoiceChoice & { min_chars?: number };

type Session = {
  id: number;
  keys: string[];
  chatId?: string;
  messageId?: string;
  chunker: SpeechChunker;
  spoken: SpokenText;
  complete: boolean;
};

/**
 * Reads messages aloud: one session at a time (a message, or a reply as it streams), its markdown
 * turned into the words a person reads on screen (utils/spokenText.ts), cut into chunks by the
 * SpeechChunker and played by the AudioEngine. The view is mirrored in speechStore.
 */
class ReadAloudController {
  readonly engine = new AudioEngine();
  private session: Session | null = null;
  private config: ReadAloudConfig = {};
  private sessions = 0;
  /** performance.now() when the first chunk of the current session was cut (for the bench). */
  firstChunkAt: number | null = null;

  constructor() {
    this.engine.subscribe(() => this.publish());
    if (typeof window !== 'undefined') window.addEventListener('pagehide', () => this.stop());
  }

  configure(config: ReadAloudConfig | null | undefined): void {
    this.config = config ?? {};
    this.engine.setVoice({ voice: this.config.voice, speed: this.config.speed, openai_model: this.config.openai_model });
  }

  /** Reads a whole (completed) message from the start. */
  play(key: string, text: string, where: { chatId?: string; messageId?: string } = {}): void {
    this.begin(key, where);
    const session = this.session!;
    session.chunker.update(session.spoken.update(text, true), true);
    session.complete = true;
    this.publish();
  }

  /**
   * Follows a streamed reply: the same key keeps the session (its text extends, or starts over
   * when it changed); another key stops what plays and begins a new session.
   */
  follow(key: string, text: string, complete: boolean, where: { chatId?: string; messageId?: string } = {}): void {
    const session = this.session;
    if (!session || !session.keys.includes(key)) this.begin(key, where);
    const current = this.session!;
    if (where.messageId && !current.messageId) {
      current.messageId = where.messageId;
      if (!current.keys.includes(where.messageId)) current.keys = [...current.keys, where.messageId];
    }
    current.chunker.update(current.spoken.update(text, complete), complete);
    current.complete = complete;
    this.publish();
  }

  /** Whether `key` is the message being spoken. */
  isSpeaking(key: string): boolean {
    return !!this.session?.keys.includes(key);
  }

  stop(): void {
    this.session?.chunker.dispose();
    this.session = null;
    this.engine.stop();
    this.publish();
  }

  pause(): void {
    this.engine.pause();
  }

  resume(): void {
    this.engine.resume();
  }

  private begin(key: string, where: { chatId?: string; messageId?: string }): void {
    this.session?.chunker.dispose();
    this.engine.stop();
    this.engine.init();
    this.sessions += 1;
    this.firstChunkAt = null;
    const id = this.sessions;
    const chunker = new SpeechChunker({
      minChars: this.config.min_chars ?? TTS.minChars,
      onChunk: (text) => {
        const session = this.session;
        if (!session || session.id !== id) return;
        if (this.firstChunkAt === null) {
          this.firstChunkAt = performance.now();
          // User Timing, for the bench (scripts/bench-voice-browser.mjs) and the browser's profiler.
          performance.mark?.('voice:first-chunk', { startTime: this.firstChunkAt });
        }
        this.engine.enqueue({ text, chatId: session.chatId, messageId: session.messageId });
      },
      // Different text: what plays stops and the new text is spoken from its start.
      onRestart: () => this.engine.stop(),
    });
    this.session = {
      id,
      keys: [key, ...(where.messageId && where.messageId !== key ? [where.messageId] : [])],
      ...where,
      chunker,
      spoken: new SpokenText(),
      complete: false,
    };
  }

  private publish(): void {
    speechStore.set({
      session: this.session?.id ?? speechStore.get().session,
      keys: this.session?.keys ?? [],
      state: this.engine.state,
      complete: this.session?.complete ?? true,
    });
  }
}

export const readAloud = new ReadAloudController();

/** A streamed reply's key (its message id is known only at its end). */
export const draftKey = (draft: ReplyDraft) =>
  `draft:${draft.id ?? `${draft.chatId}:${draft.regenerateOf ?? draft.previousMessageId ?? 'start'}:${draft.pendingUserText ?? ''}`}`;

/**
 * Auto read-aloud: speaks each new reply while it streams (not `initial`, the one on screen at the
 * first render). The answer stops following and forgets the replies spoken; it does not stop what
 * plays (the chat page is mounted again when a first message opens a new conversation, and its
 * reply is still being spoken: the new follower carries on with the same session). Whoever turns
 * auto read-aloud off or leaves the chat stops the playback.
 */
export function followReplies(
  replyStore: Store<{ draft: ReplyDraft | null }>,
  initial: ReplyDraft | null,
  config: () => ReadAloudConfig | null | undefined,
): () => void {
  const completed = new Set<string>();
  if (initial) completed.add(draftKey(initial));
  let last = initial;
  const onDraft = () => {
    const draft = replyStore.get().draft;
    if (draft === last) return;
    last = draft;
    if (!draft) return;
    const key = draftKey(draft);
    if (completed.has(key)) return;
    const complete = !draft.streaming;
    if (complete) completed.add(key);
    readAloud.configure(config());
    readAloud.follow(key, draft.text, complete, { chatId: draft.chatId, messageId: draft.assistantMessage?.message_id });
  };
  onDraft();
  const off = replyStore.subscribe(onDraft);
  return () => {
    off();
    completed.clear();
  };
}
