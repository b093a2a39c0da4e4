import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CHAT_STOP_SUBJECT } from '@app/contracts/chat';
import { BUS, decodeOrUndefined, encode, type Bus, type BusSubscription } from '@app/platform';

/**
 * Replies being generated in this process, by user message id, so that "stop" can reach them.
 * A stop is broadcast to every chat replica: whichever is generating that reply aborts it.
 */
@Injectable()
export class StopRegistry implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly running = new Map<string, AbortController>();
  private subscription?: BusSubscription;

  constructor(@Inject(BUS) private readonly bus: Pick<Bus, 'subscribe' | 'publish'>) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe(CHAT_STOP_SUBJECT, (message) => {
      // A message that is not a stop (not JSON, no id) is ignored, never thrown into the bus's callback.
      const id = (decodeOrUndefined(message.data) as { message_id?: unknown } | undefined)?.message_id;
      if (typeof id === 'string') this.running.get(id)?.abort(new Error('stopped'));
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
    for (const controller of this.running.values()) controller.abort(new Error('shutdown'));
  }

  track(userMessageId: string): AbortController {
    const controller = new AbortController();
    this.running.set(userMessageId, controller);
    return controller;
  }

  release(userMessageId: string, controller: AbortController): void {
    if (this.running.get(userMessageId) === controller) this.running.delete(userMessageId);
  }

  /** Asks every replica (this one included) to stop the reply to this message. */
  broadcast(userMessageId: string): void {
    this.bus.publish(CHAT_STOP_SUBJECT, encode({ message_id: userMessageId }));
  }
}
