import { Controller } from '@nestjs/common';
import { CHAT_EVENTS } from '@app/contracts/chat';
import { EventHandler, type EventInput } from '@app/platform';
import { ExtractionService } from './extraction.service';

/** A durable consumer of completed exchanges (at-least-once; the service applies each event once). */
@Controller()
export class ExtractionHandlers {
  constructor(private readonly extraction: ExtractionService) {}

  @EventHandler(CHAT_EVENTS.exchangeCompleted)
  async exchangeCompleted({ event_id, payload }: EventInput<typeof CHAT_EVENTS.exchangeCompleted>): Promise<void> {
    await this.extraction.learn(event_id, payload);
  }
}
