import { useEffectiveFlags } from '../../insider/hooks/insiderQueries';
import { LazyMarkdown } from '../../markdown/components/LazyMarkdown';
import { useModelPhase, type ModelPhase } from '../hooks/useModelPhase';
import type { ReplyDraft } from '../state/replyStore';
import { Attachments } from '../../files/components/Attachments';
import { Spinner } from '../../../ui/Spinner';
import { Reasoning } from './MessageItem';
import { PhaseLine } from './PhaseLine';

type DraftReplyProps = { draft: ReplyDraft; onRetry?: () => void };

const ORDER: ModelPhase[] = ['idle', 'personalizing', 'searching', 'thinking'];

/** The reply as it streams: phases until text arrives, then the text, rendered once per frame. */
export function DraftReply({ draft, onRetry }: DraftReplyProps) {
  const waiting = draft.streaming && !draft.text;
  const timed = useModelPhase(waiting);
  const showRewritten = useEffectiveFlags().show_rewritten_user_message;
  // The server's phase wins when it is further along than the timer.
  const server = draft.serverPhase === 'tool' ? 'thinking' : (draft.serverPhase ?? 'idle');
  const phase = waiting ? (ORDER.indexOf(server) > ORDER.indexOf(timed) ? server : timed) : 'idle';
  // A tool running shows its own line ("Setting a reminder…"), before or after some text.
  const tool = draft.streaming && draft.serverPhase === 'tool' ? draft.toolLabel : null;
  const generating = draft.partialImages.some(Boolean) && draft.images.length === 0;
  return (
    <article className="message message--assistant message--draft" aria-label="The assistant is replying" aria-busy={draft.streaming}>
      {tool ? <PhaseLine phase="thinking" label={tool} /> : <PhaseLine phase={phase} />}
      <Reasoning text={draft.reasoning} open={draft.streaming && !draft.text} />
      {showRewritten && draft.rewrittenQuery && <p className="rewritten">Searched for: “{draft.rewrittenQuery}”</p>}
      {draft.text && (
        <div className="message__body">
          <LazyMarkdown text={draft.text} streaming={draft.streaming} />
          {draft.streaming && <span className="caret" aria-hidden="true" />}
        </div>
      )}
      {generating && (
        <ul className="image-slots" aria-label="Image being generated">
          {draft.partialImages.map((src, index) => (
            <li key={index} className="image-slot" data-filled={!!src || undefined}>
              {src ? (
                <img src={src} alt={`Preview ${index + 1} of the image being generated`} />
              ) : draft.streaming ? (
                <Spinner label={`Preview ${index + 1} on its way`} />
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Attachments files={draft.images} label="Generated images" />
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
