import { TTS } from './constants';

type Timer = unknown;

export type ChunkerOptions = {
  /** Called with each chunk to speak, in order. */
  onChunk: (text: string) => void;
  /** Called when the text changed to something that does not extend it: what plays must stop. */
  onRestart?: () => void;
  /** The shortest chunk (the user's `min_chars`, default 100). */
  minChars?: number;
  retryMs?: number;
  maxRetries?: number;
  /** Timers are injectable for tests; the browser's by default. */
  setTimer?: (fn: () => void, ms: number) => Timer;
  clearTimer?: (timer: Timer) => void;
};

/** Sentence ends: . ! ? ; followed by white space (closing quotes and brackets stay with the sentence). */
const BOUNDARY = /[.!?;]+["'”’)\]]*(?=\s)/g;

/**
 * Cuts a message into the chunks it is spoken in (spec sections 4 and 9): text that extends what
 * came before is appended, different text stops playback and starts over; a chunk ends at a
 * sentence end and is at least `minChars` long; while no such end is there, it looks again every
 * 100 ms, 30 times, then forces the text out; a completed message is spoken whole (the rest flushed).
 */
export class SpeechChunker {
  private text = '';
  /** How much of `text` has been handed out. */
  private spoken = 0;
  private complete = false;
  private retries = 0;
  private timer: Timer | null = null;
  private readonly minChars: number;
  private readonly retryMs: number;
  private readonly maxRetries: number;
  private readonly setTimer: (fn: () => void, ms: number) => Timer;
  private readonly clearTimer: (timer: Timer) => void;

  constructor(private readonly options: ChunkerOptions) {
    this.minChars = Math.max(1, options.minChars ?? TTS.minChars);
    this.retryMs = options.retryMs ?? TTS.boundaryRetryMs;
    this.maxRetries = options.maxRetries ?? TTS.boundaryRetries;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  /**
   * The whole text so far (a streamed reply's text grows; anything else starts over). Text that
   * keeps what was already handed out and changes only what was not (the words read from a reply
   * still being written, settling) goes on from there: nothing is spoken twice.
   */
  update(text: string, complete = false): void {
    if (text.startsWith(this.text) || (this.spoken > 0 && text.startsWith(this.text.slice(0, this.spoken)))) {
      this.text = text;
    } else {
      this.restart(text);
    }
    this.complete = complete;
    this.cut();
  }

  /** More text at the end. */
  append(delta: string, complete = false): void {
    this.update(this.text + delta, complete);
  }

  /** A reasoning update: the whole reasoning so far (replace) or a piece of it (append). */
  reasoning(text: string, mode: 'replace' | 'append'): void {
    if (mode === 'append') this.append(text);
    else this.update(text);
  }

  /** The message is complete: everything not yet spoken goes out. */
  finish(): void {
    this.complete = true;
    this.cut();
  }

  /** Forget everything (nothing more is handed out). */
  dispose(): void {
    this.stopTimer();
    this.text = '';
    this.spoken = 0;
    this.complete = false;
  }

  get pendingText(): string {
    return this.text.slice(this.spoken);
  }

  get retryCount(): number {
    return this.retries;
  }

  private restart(text: string): void {
    this.stopTimer();
    const hadSpoken = this.spoken > 0 || this.text.length > 0;
    this.text = text;
    this.spoken = 0;
    this.retries = 0;
    if (hadSpoken) this.options.onRestart?.();
  }

  private cut(): void {
    for (;;) {
      const end = this.nextEnd();
      if (end === null) break;
      this.emit(end);
      this.retries = 0;
    }
    if (this.complete) {
      if (this.pendingText.trim()) this.emit(this.text.length);
      this.stopTimer();
      return;
    }
    if (this.pendingText.trim()) this.startTimer();
    else this.stopTimer();
  }

  /** Where the next chunk ends: the first sentence end at least minChars into the pending text. */
  private nextEnd(): number | null {
    const pending = this.pendingText;
    BOUNDARY.lastIndex = 0;
    for (let match = BOUNDARY.exec(pending); match; match = BOUNDARY.exec(pending)) {
      const end = match.index + match[0].length;
      if (end > TTS.maxTextChars) break;
      if (pending.slice(0, end).trim().length >= this.minChars) return this.spoken + end;
    }
    // Too long without a sentence end: cut at the last space that fits the API.
    if (pending.length > TTS.maxTextChars) {
      const space = pending.lastIndexOf(' ', TTS.maxTextChars);
      return this.spoken + (space > 0 ? space : TTS.maxTextChars);
    }
    return null;
  }

  private emit(end: number): void {
    const chunk = this.text.slice(this.spoken, end).trim();
    this.spoken = end;
    if (chunk) {
      // A completed message longer than one request is still spoken whole, in pieces the API takes.
      for (let rest = chunk; rest;) {
        let piece = rest;
        if (rest.length > TTS.maxTextChars) {
          const space = rest.lastIndexOf(' ', TTS.maxTextChars);
          piece = rest.slice(0, space > 0 ? space : TTS.maxTextChars);
        }
        this.options.onChunk(piece.trim());
        rest = rest.slice(piece.length).trim();
      }
    }
  }

  private startTimer(): void {
    if (this.timer !== null) return;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.retries += 1;
      if (this.retries >= this.maxRetries) {
        // No sentence end came in time: the text is forced out.
        this.retries = 0;
        if (this.pendingText.trim()) this.emit(this.text.length);
        return;
      }
      this.cut();
    }, this.retryMs);
  }

  private stopTimer(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.retries = 0;
  }
}
