import { Inject, Injectable } from '@nestjs/common';
import { AppLogger } from '@app/platform';
import { toMessageView } from '../conversations/views';
import { CheckpointStep } from './checkpoint.step';
import { PersonalizeStep } from './personalize.step';
import { PromptStep } from './prompt.step';
import type { ReplyContext } from './reply-context';
import { failureOf, type ReplyFailure } from './reply-failure';
import { SaveStep } from './save.step';
import { StreamStep } from './stream.step';
import { ToolsStep } from './tools.step';

/**
 * A reply, top to bottom:
 *
 *   1. personalize   the user's relevant memories and insider flags      → ctx.memories, ctx.rewrittenQuery
 *   2. build prompt  the active history, its attachments, instructions   → ctx.prompt
 *   3. stream        the provider's answer, told to the client as it comes → ctx.text, reasoning, images, served
 *   4. tools         the tools the model asked for, run, their results given back (ctx.toolRuns);
 *                    then 3 again, at most CHAT_MAX_TOOL_STEPS times
 *   5. store         the reply's row written for good (and the exchange event with it)
 *
 * then `assistant_message` (the stored reply), `error` (why it ended early, if it did) and `done`.
 * A step that fails ends the steps there: what came is stored as an incomplete reply. While steps
 * 1 to 4 run, the reply is saved every second (checkpoints), so a process that dies loses nothing;
 * its lease is held until step 5 is over.
 */
@Injectable()
export class ReplyPipeline {
  constructor(
    private readonly checkpoints: CheckpointStep,
    private readonly personalize: PersonalizeStep,
    private readonly prompt: PromptStep,
    private readonly stream: StreamStep,
    private readonly tools: ToolsStep,
    private readonly store: SaveStep,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn' | 'error'>,
  ) {}

  async run(ctx: ReplyContext): Promise<void> {
    const saving = this.checkpoints.start(ctx);
    try {
      // The history is read while the memories are looked for (the prompt needs both).
      const history = this.prompt.load(ctx);
      history.catch(() => undefined); // its failure is the prompt step's, below
      const tools = this.tools.offer(ctx); // never fails: without its tools, a reply goes on without them
      await this.personalize.run(ctx);
      await this.prompt.run(ctx, history);
      await tools;
      this.tools.instruct(ctx);
      await this.stream.run(ctx);
      while (this.tools.wanted(ctx)) {
        await this.tools.run(ctx);
        await this.stream.run(ctx);
      }
    } catch (error) {
      this.endEarly(ctx, failureOf(error, ctx.stop.signal));
    } finally {
      await saving.stop();
    }

    try {
      await this.store.run(ctx);
      ctx.emit({ event: 'assistant_message', data: toMessageView(ctx.reply) });
    } catch (error) {
      this.endEarly(ctx, failureOf(error));
    } finally {
      // Held until now: a final save waiting its turn is not taken for an abandoned reply.
      this.checkpoints.end(ctx);
    }
    if (ctx.failure) ctx.emit({ event: 'error', data: { detail: ctx.failure.detail } });
    ctx.emit({ event: 'done', data: {} });
  }

  private endEarly(ctx: ReplyContext, failure: ReplyFailure): void {
    ctx.failure = failure;
    const about = { chat_id: ctx.conversation.id, reply_id: ctx.reply.id, error: describe(failure.error) };
    if (failure.kind === 'model') this.logger.warn({ msg: 'The model failed', ...about }, 'ReplyPipeline');
    if (failure.kind === 'storage') this.logger.error({ msg: failure.detail, ...about }, 'ReplyPipeline');
    if (failure.kind === 'internal')
      this.logger.error(failure.error instanceof Error ? failure.error : String(failure.error), about, 'ReplyPipeline');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
