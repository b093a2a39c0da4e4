import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository, type ExchangeCompleted } from '../conversations/chat.repository';
import { LLM_PROVIDER, type LlmProvider } from '../llm/llm-provider';
import { titleFrom } from './title-from';

const TITLE_TIMEOUT_MS = 8_000;
const TITLE_INSTRUCTIONS =
  'Give a title of at most 6 words for a conversation that starts with the message below. Answer with the title only, no quotes.';

/**
 * Names a conversation after its first complete exchange, once: the model is asked for a title
 * of the user's message (the words of the message itself when it gives none). A conversation
 * that has a title (given by the user, or already made) keeps it; a redelivered event changes
 * nothing.
 */
@Injectable()
export class TitleService {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'isUntitled' | 'titleOnce'>,
    @Inject(LLM_PROVIDER) private readonly llm: Pick<LlmProvider, 'complete'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_MODEL' | 'CHAT_FAST_MODEL'>,
  ) {}

  /** Titles the exchange's conversation if it has no title yet; true when this event titled it. */
  async afterExchange(eventId: string, exchange: ExchangeCompleted): Promise<boolean> {
    if (!(await this.repo.isUntitled(exchange.user_id, exchange.chat_id))) return false;
    const title = await this.titleFor(exchange.user_text);
    return this.repo.titleOnce(eventId, exchange.user_id, exchange.chat_id, title);
  }

  private async titleFor(question: string): Promise<string> {
    try {
      const title = await this.llm.complete({
        // The configured model when there is one (a local server may serve nothing else).
        model: this.config.CHAT_MODEL ?? this.config.CHAT_FAST_MODEL,
        system: TITLE_INSTRUCTIONS,
        prompt: question.slice(0, 2_000),
        signal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
      });
      return title.replace(/^["'\s]+|["'\s.]+$/g, '').slice(0, 80) || titleFrom(question);
    } catch {
      return titleFrom(question);
    }
  }
}
