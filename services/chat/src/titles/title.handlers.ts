import { Controller } from '@nestjs/common';
import { CHAT_EVENTS } from '@app/contracts/chat';
import { EventHandler, type EventInput } from '@app/platform';
import { TitleService } from './title.service';

/** The chat service's own consumer of completed exchanges (at-least-once; titled once). */
@Controller()
export class TitleHandlers {
  constructor(private readonly titles: TitleService) {}

  @EventHandler(CHAT_EVENTS.exchangeCompleted)
  async exchangeCompleted({ event_id, payload }: EventInput<typeof CHAT_EVENTS.exchangeCompleted>): Promise<void> {
    await this.titles.afterExchange(event_id, payload);
  }
}
