import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { LlmError, MODEL_FAILED } from '../llm/llm-error';
import { LLM_PROVIDER, type LlmEvent, type LlmProvider } from '../llm/llm-provider';
import { AttachmentsService } from './attachments.service';
import { DeltaCoalescer } from './delta-coalescer';
import type { ReplyContext } from './reply-context';
import { ReplyStopped } from './reply-failure';

const STALLED = 'The model stopped answering.';
const TOO_LONG = 'The reply took too long and was cut short.';

/**
 * Step 3: the provider's answer, told to the client as it comes (text, reasoning, the search
 * phase, partial images) and kept in the context; a final image is stored through the files
 * service. The model is cut short when it stays silent for LLM_STALL_TIMEOUT_MS or the reply
 * takes longer than LLM_TOTAL_TIMEOUT_MS. Fails with an LlmError, or ends because it was aborted.
 */
@Injectable()
export class StreamStep {
  constructor(
    @Inject(LLM_PROVIDER) private readonly llm: Pick<LlmProvider, 'stream'>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'storeGenerated'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG)
    private readonly config: Pick<
      ChatConfig,
      'CHAT_WEB_SEARCH' | 'CHAT_IMAGE_GENERATION' | 'LLM_STALL_TIMEOUT_MS' | 'LLM_TOTAL_TIMEOUT_MS'
    >,
  ) {}

  async run(ctx: ReplyContext): Promise<void> {
    ctx.emit({ event: 'phase', data: { phase: 'thinking' } });
    const events = this.llm.stream({
      model: ctx.choice.model,
      system: ctx.prompt.system,
      turns: ctx.prompt.turns,
      reasoning: ctx.choice.reasoning,
      // With a search engine of the product's own (search_web), the Responses API's built-in search is not offered too.
      webSearch: this.config.CHAT_WEB_SEARCH && !ctx.offeredTools.some((tool) => tool.name === 'search_web'),
      imageGeneration: this.config.CHAT_IMAGE_GENERATION,
      tools: ctx.offeredTools,
      signal: ctx.stop.signal,
    });
    ctx.round = { text: '', calls: [] };
    const searching = { now: false };
    // Deltas that come close together are sent as one event (one frame on the bus, one SSE write).
    const out = new DeltaCoalescer(ctx.emit);
    try {
      for await (const event of this.watched(events, ctx)) {
        // Only a final image is awaited (it is stored): a delta costs no promise of its own.
        const storing = this.take(ctx, out, event, searching);
        if (storing) await storing;
      }
    } catch (error) {
      if (ctx.stop.signal.aborted) throw ctx.stop.signal.reason;
      throw error instanceof LlmError ? error : new LlmError('unavailable', MODEL_FAILED, { cause: error });
    } finally {
      out.close();
    }
    if (ctx.stop.signal.aborted) throw ctx.stop.signal.reason;
  }

  private take(ctx: ReplyContext, out: DeltaCoalescer, event: LlmEvent, searching: { now: boolean }): Promise<void> | void {
    switch (event.type) {
      case 'text':
        if (searching.now) {
          searching.now = false;
          out.send({ event: 'phase', data: { phase: 'thinking' } });
        }
        ctx.text += event.delta;
        ctx.round.text += event.delta;
        out.send({ event: 'text', data: { delta: event.delta } });
        return;
      case 'reasoning':
        ctx.reasoning += event.delta;
        out.send({ event: 'reasoning', data: { delta: event.delta } });
        return;
      case 'searching':
        if (!searching.now) out.send({ event: 'phase', data: { phase: 'searching' } });
        searching.now = true;
        return;
      case 'image_partial':
        out.send({ event: 'image_partial', data: { index: Math.min(2, Math.max(0, event.index)), data_url: dataUrl(event) } });
        return;
      case 'image':
        return this.storeImage(ctx, out, event);
      case 'tool_call':
        ctx.round.calls.push(event.call);
        return;
      case 'meta':
        ctx.served.requestId ??= event.requestId;
        ctx.served.model = event.model ?? ctx.served.model;
        return;
    }
  }

  private async storeImage(ctx: ReplyContext, out: DeltaCoalescer, event: Extract<LlmEvent, { type: 'image' }>): Promise<void> {
    try {
      const file = await this.attachments.storeGenerated(ctx.caller, event.base64, event.mimeType);
      ctx.images.push(file);
      out.send({ event: 'image', data: file });
    } catch (error) {
      // The image is still shown, in the last preview slot; it is not kept.
      this.logger.warn({ msg: 'A generated image could not be stored', error: String(error) }, 'StreamStep');
      out.send({ event: 'image_partial', data: { index: 2, data_url: dataUrl(event) } });
    }
  }

  /**
   * The provider's events until it is done, or until `stop` is aborted: by a stall, the total limit
   * (counted from the reply's start: a reply that called tools asks the model several times), or anyone else.
   */
  private async *watched(events: AsyncIterable<LlmEvent>, ctx: ReplyContext): AsyncIterable<LlmEvent> {
    const { stop } = ctx;
    const { LLM_STALL_TIMEOUT_MS: stallMs, LLM_TOTAL_TIMEOUT_MS: totalMs } = this.config;
    const total = setTimeout(() => stop.abort(new LlmError('timeout', TOO_LONG)), Math.max(0, totalMs - (Date.now() - ctx.startedAt)));
    // One stall timer, not one per event: when it fires early (an event came since), it waits for the rest.
    let lastEventAt = performance.now();
    const checkStall = () => {
      const quietMs = performance.now() - lastEventAt;
      if (quietMs >= stallMs) stop.abort(new LlmError('timeout', STALLED));
      else stall = setTimeout(checkStall, stallMs - quietMs);
    };
    let stall = setTimeout(checkStall, stallMs);
    try {
      for await (const event of events) {
        lastEventAt = performance.now();
        yield event;
        if (stop.signal.aborted) throw new ReplyStopped();
      }
    } finally {
      clearTimeout(total);
      clearTimeout(stall);
    }
  }
}

function dataUrl(image: { mimeType: string; base64: string }): string {
  return `data:${image.mimeType};base64,${image.base64}`;
}
