import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { toLightHtml } from '../../../../ui/clipboard';
import { useEffectiveFlags } from '../../../insider/hooks/insiderQueries';
import { Attachments } from '../../../files/components/Attachments';
import type { ReplyDraft } from '../../state/replyStore';
import { linkCitations } from '../../utils/citations';
import type { DisplayMessage } from '../../utils/history';
import { ImageSlots } from './ImageSlots';
import { MessageBody } from './MessageBody';
import { messageElementId, type MessagePlaceProps } from './messageProps';
import { Reasoning } from './Reasoning';
import { ReplyActions } from './ReplyActions';
import { ReplyPhase } from './ReplyPhase';
import { CutShortNotice, FailedNotice } from './ReplyNotices';
import { RewrittenQuery } from './RewrittenQuery';
import { Sources } from './Sources';
import { ToolRuns } from './ToolRuns';

export type AssistantMessageProps = MessagePlaceProps & {
  /** The stored reply, or, while it streams, its draft (one of the two). */
  message?: DisplayMessage;
  draft?: ReplyDraft;
  /** After a failed stream: asks again. */
  onRetry?: () => void;
};

/**
 * A reply of the assistant, as it streams and once stored: one component for both, with its parts
 * always in the same places, so that React keeps the reply's elements when the stored message
 * replaces the draft (the list gives both the same key) instead of building them again.
 */
export function AssistantMessage({
  message,
  draft,
  branch,
  busy,
  actions,
  shareId,
  highlighted,
  linked,
  marks = null,
  onRetry,
}: AssistantMessageProps) {
  const body = useRef<HTMLDivElement>(null);
  const flags = useEffectiveFlags();
  const metadata = message?.metadata ?? {};
  const stored = message?.text ?? '';
  const citations = metadata.citations;
  const storedText = useMemo(() => linkCitations(stored, citations), [stored, citations]);
  // A stored reply coming into view (a long conversation scrolled) renders its text in a transition
  // of its own, which React splits into slices: scrolling past many replies is never one long task.
  // A draft shows its text at once, and so does the stored reply that replaces it (same component).
  const [shown, setShown] = useState(!!draft);
  useEffect(() => {
    if (!shown) startTransition(() => setShown(true));
  }, [shown]);
  const text = draft ? draft.text : shown ? storedText : '';
  const streaming = !!draft?.streaming;
  const generating = !!draft && draft.partialImages.some(Boolean) && draft.images.length === 0;
  const reasoning = draft ? draft.reasoning : typeof metadata.reasoning === 'string' ? metadata.reasoning : '';
  const className = `message message--assistant${draft ? ' message--draft' : ''}${highlighted ? ' message--highlight' : ''}`;
  const label = draft ? 'The assistant is replying' : message?.expert_name ? `${message.expert_name} said` : 'The assistant said';
  return (
    <article
      className={className}
      id={message ? messageElementId(message.id) : undefined}
      tabIndex={linked ? -1 : undefined}
      aria-label={label}
      aria-busy={draft ? streaming : undefined}
    >
      {draft && <ReplyPhase draft={draft} />}
      <Reasoning text={reasoning} open={streaming && !draft?.text} />
      <RewrittenQuery text={draft ? draft.rewrittenQuery : metadata.rewritten_query} show={!!flags.show_rewritten_user_message} />
      {(text || !draft) && <MessageBody ref={body} text={text} streaming={streaming} marks={marks} />}
      {generating && <ImageSlots partials={draft.partialImages} streaming={streaming} />}
      <Attachments
        files={draft ? draft.images : (message?.files ?? [])}
        shareId={shareId}
        label={draft ? 'Generated images' : 'Images and files of the reply'}
      />
      <Sources citations={citations} />
      <ToolRuns runs={metadata.tools} />
      {metadata.incomplete && (
        <CutShortNotice busy={busy} onRegenerate={actions && message ? () => actions.regenerate(message) : undefined} />
      )}
      {draft?.error && <FailedNotice error={draft.error} onRetry={streaming ? undefined : onRetry} />}
      {message && !draft && (
        <ReplyActions
          message={message}
          branch={branch}
          busy={busy}
          actions={actions}
          shareId={shareId}
          flags={flags}
          html={() => (body.current ? toLightHtml(body.current) : undefined)}
        />
      )}
    </article>
  );
}
