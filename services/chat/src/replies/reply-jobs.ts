import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { platformMetrics, ServiceLifecycle } from '@app/platform';
import { newReplyContext, type ReplyGiven } from './reply-context';
import { SHUTDOWN_DETAIL, ReplyStopped } from './reply-failure';
import { ReplyPipeline } from './reply-pipeline';
import { StopRegistry } from './stop-registry';

/** How long the shutdown waits for the replies it cut to be stored. */
const SHUTDOWN_STORE_MS = 5_000;

/**
 * The replies this process is writing. Each runs the pipeline to its end whoever listens, can be
 * stopped from any replica (StopRegistry), and is cut short, stored as incomplete, when the grace
 * period of a shutdown is nearly over (the rows of any not stored in time are recovered by the
 * next process once their lease runs out).
 */
@Injectable()
export class ReplyJobs implements OnApplicationShutdown {
  /** Replies being written, by reply id. */
  private readonly writing = new Map<string, { stop: AbortController; done: Promise<void> }>();

  constructor(
    private readonly stops: StopRegistry,
    private readonly pipeline: ReplyPipeline,
    lifecycle: ServiceLifecycle,
  ) {
    lifecycle.cutoff.addEventListener('abort', () => this.cutShort(), { once: true });
    // assistant_active_reply_streams: the replies `write()` is writing (chat autoscales on it).
    platformMetrics.hostReplyStreams();
  }

  /** Writes a reply (its rows already stored) through the pipeline, to its end. */
  async write(given: Omit<ReplyGiven, 'stop'>): Promise<void> {
    const stop = this.stops.track(given.userMessage.id);
    let finished!: () => void;
    this.writing.set(given.reply.id, { stop, done: new Promise<void>((resolve) => (finished = resolve)) });
    platformMetrics.replyStreamStarted();
    try {
      await this.pipeline.run(newReplyContext({ ...given, stop }));
    } finally {
      platformMetrics.replyStreamEnded();
      this.stops.release(given.userMessage.id, stop);
      this.writing.delete(given.reply.id);
      finished();
    }
  }

  /** Asks whichever replica writes the reply to this user message to stop it. */
  stop(userMessageId: string): void {
    this.stops.broadcast(userMessageId);
  }

  /** Shutting down: replies still being written end now with what they have, stored as incomplete. */
  async onApplicationShutdown(): Promise<void> {
    const replies = this.cutShort();
    if (replies.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(replies.map((reply) => reply.done)),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_STORE_MS))),
    ]);
    clearTimeout(timer);
  }

  private cutShort(): { done: Promise<void> }[] {
    const replies = [...this.writing.values()];
    for (const { stop } of replies) if (!stop.signal.aborted) stop.abort(new ReplyStopped(SHUTDOWN_DETAIL));
    return replies;
  }
}
