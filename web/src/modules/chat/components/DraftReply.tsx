import { useEffectiveFlag } from '../../insider/state/insiderStore';
import { Markdown } from '../../markdown/components/Markdown';
import { useModelPhase, type ModelPhase } from '../hooks/useModelPhase';
import type { ReplyDraft } from '../state/replyStore';
import { FileImages, Reasoning } from './MessageItem';
import { PhaseLine } from './PhaseLine';

type DraftReplyProps = { draft: ReplyDraft; onRetry?: () => void };

const ORDER: ModelPhase[] = ['idle', 'personalizing', 'searching', 'thinking'];

/** The reply as it streams: phases until text arrives, then the text, rendered once per frame. */
export function DraftReply({ draft, onRetry }: DraftReplyProps) {
  const waiting = draft.streaming && !draft.text;
  const timed = useModelPhase(waiting);
  const showRewritten = useEffectiveFlag('show_rewritten_user_message');
  // The server's phase wins when it is further along than the timer.
  const server = draft.serverPhase ?? 'idle';
  const phase = waiting ? (ORDER.indexOf(server) > ORDER.indexOf(timed) ? server : timed) : 'idle';
  const images = draft.partialImages.filter((image): image is string => !!image);
  return (
    <article className="message message--assistant message--draft" aria-label="The assistant is replying" aria-busy={draft.streaming}>
      <PhaseLine phase={phase} />
      <Reasoning text={draft.reasoning} open={draft.streaming && !draft.text} />
      {showRewritten && draft.rewrittenQuery && <p className="rewritten">Searched for: “{draft.rewrittenQuery}”</p>}
      {draft.text && (
        <div className="message__body">
          <Markdown text={draft.text} streaming={draft.streaming} />
          {draft.streaming && <span className="caret" aria-hidden="true" />}
        </div>
      )}
      {images.length > 0 && draft.images.length === 0 && (
        <div className="message__images message__images--partial">
          {images.map((src, index) => (
            <img key={index} src={src} alt={`Image preview ${index + 1}`} />
          ))}
        </div>
      )}
      <FileImages files={draft.images} />
      {draft.error && (
        <div className="notice notice--error" role="alert">
          {draft.error}
          {onRetry && !draft.streaming && (
            <button type="button" className="link-button" onClick={onRetry}>
              Try again
            </button>
          )}
        </div>
      )}
    </article>
  );
}
