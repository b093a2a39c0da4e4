import { TTS } from './constants';

/** The voice provider's request ids per message, the last 3 only (spec section 9). */
export class RequestIdLog {
  private readonly ids = new Map<string, string[]>();

  constructor(private readonly keep: number = TTS.requestIdsPerMessage) {}

  add(messageId: string, requestId: string | null | undefined): void {
    if (!requestId) return;
    const list = [...(this.ids.get(messageId) ?? []), requestId].slice(-this.keep);
    this.ids.set(messageId, list);
  }

  of(messageId: string): readonly string[] {
    return this.ids.get(messageId) ?? [];
  }

  clear(): void {
    this.ids.clear();
  }
}
