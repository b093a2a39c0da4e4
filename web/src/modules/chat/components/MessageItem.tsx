import { useRef, useState, type ReactNode } from 'react';
import { toLightHtml } from '../../../ui/clipboard';
import { CopyButton } from '../../../ui/CopyButton';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { Icon } from '../../../ui/Icon';
import { Attachments } from '../../files/components/Attachments';
import { useEffectiveFlags } from '../../insider/hooks/insiderQueries';
import { LazyMarkdown } from '../../markdown/components/LazyMarkdown';
import type { DisplayMessage } from '../utils/history';
import { BranchSwitcher } from './BranchSwitcher';
import { linkCitations } from '../utils/citations';
import { Sources } from './Sources';
import { ToolRuns } from './ToolRuns';
import { IconButton } from '../../../ui/IconButton';
import { ReadAloudButton } from '../../voice/components/ReadAloudButton';
import { MarkedText, SearchMarks } from '../../search/components/SearchMarks';
import type { SearchTerm } from '@app/contracts/chat/search-terms';

type Branch = { index: number; count: number; onSwitch: (index: number) => void };

type MessageItemProps = {
  message: DisplayMessage;
  branch?: Branch;
  busy: boolean;
  onEdit?: (text: string) => void;
  onRegenerate?: () => void;
  onFeedback?: (feedback: 'like' | 'dislike' | null, verbose?: string | null) => void;
  readOnly?: boolean;
  /** On a shared page: attachments are read through the share. */
  shareId?: string;
  /** Scrolled to and marked for a moment (a link from the memories page). */
  highlighted?: boolean;
  /** The message a link leads to: it takes the focus. */
  linked?: boolean;
  /** Opened from a search: the words of the query, marked in the text. */
  marks?: SearchTerm[] | null;
};

/** Where a message is in the page (the memories page links to it). */
export const messageElementId = (id: string) => `message-${id}`;

export function Reasoning({ text, open }: { text: string; open?: boolean }) {
  if (!text.trim()) return null;
  return (
    <details className="reasoning" open={open}>
      <summary>Reasoning</summary>
      <div className="reasoning__text">{text}</div>
    </details>
  );
}

/** A discreet line saying the built-in offline model answered (no AI provider configured). */
export function OfflineNote() {
  return (
    <span
      className="badge badge--muted"
      title="This reply comes from the built-in offline model: no AI provider is configured on this server."
    >
      <Icon name="info" size={13} /> Offline model
    </span>
  );
}

export function MessageItem({
  message,
  branch,
  busy,
  onEdit,
  onRegenerate,
  onFeedback,
  readOnly,
  shareId,
  highlighted,
  linked,
  marks = null,
}: MessageItemProps) {
  const body = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(message.text);
  const [askWhy, setAskWhy] = useState(false);
  const [why, setWhy] = useState('');
  const flags = useEffectiveFlags();
  const verboseDislike = flags.dislike_button_verbose_feedback;
  const showRewritten = flags.show_rewritten_user_message;
  const showModel = flags.show_auto_model_selection;
  const metadata = message.metadata ?? {};
  const html = () => (body.current ? toLightHtml(body.current) : undefined);

  if (message.isUser) {
    return (
      <article
        className={`message message--user${highlighted ? ' message--highlight' : ''}`}
        id={messageElementId(message.id)}
        tabIndex={linked ? -1 : undefined}
        aria-label="You said"
      >
        <Attachments files={message.files} shareId={shareId} label="Your attachments" />
        {editing ? (
          <form
            className="message__edit"
            onSubmit={(event) => {
              event.preventDefault();
              const text = draft.trim();
              if (!text) return;
              setEditing(false);
              onEdit?.(text);
            }}
          >
            <label className="visually-hidden" htmlFor={`edit-${message.id}`}>
              Edit your message
            </label>
            <textarea id={`edit-${message.id}`} value={draft} onChange={(event) => setDraft(event.target.value)} rows={3} autoFocus />
            <div className="form__actions">
              <button type="button" className="button button--secondary button--small" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="button button--primary button--small" disabled={!draft.trim() || busy}>
                Send
              </button>
            </div>
          </form>
        ) : (
          <div className="message__bubble" ref={body}>
            <SearchMarks terms={marks}>
              <MarkedText text={message.text} />
            </SearchMarks>
          </div>
        )}
        {!editing && (
          <div className="message__actions">
            {branch && <BranchSwitcher {...branch} disabled={busy} />}
            <CopyButton text={message.text} label="Copy message" className="icon-button icon-button--small" />
            {!readOnly && onEdit && (
              <IconButton
                small
                icon="edit"
                iconSize={15}
                label="Edit message"
                title="Edit"
                disabled={busy}
                onClick={() => {
                  setDraft(message.text);
                  setEditing(true);
                }}
              />
            )}
          </div>
        )}
      </article>
    );
  }

  const feedbackButton = (kind: 'like' | 'dislike', label: string): ReactNode => (
    <button
      type="button"
      className="icon-button icon-button--small"
      aria-label={label}
      aria-pressed={message.feedback === kind}
      title={label}
      onClick={() => {
        if (message.feedback === kind) return onFeedback?.(null);
        if (kind === 'dislike' && verboseDislike) {
          setWhy(message.verbose_feedback ?? '');
          setAskWhy(true);
          return;
        }
        onFeedback?.(kind);
      }}
    >
      <Icon name={kind} size={15} />
    </button>
  );

  return (
    <article
      className={`message message--assistant${highlighted ? ' message--highlight' : ''}`}
      id={messageElementId(message.id)}
      tabIndex={linked ? -1 : undefined}
      aria-label={message.expert_name ? `${message.expert_name} said` : 'The assistant said'}
    >
      <Reasoning text={typeof metadata.reasoning === 'string' ? metadata.reasoning : ''} />
      {showRewritten && metadata.rewritten_query && <p className="rewritten">Searched for: “{metadata.rewritten_query}”</p>}
      <div className="message__body" ref={body}>
        <SearchMarks terms={marks}>
          <LazyMarkdown text={linkCitations(message.text, metadata.citations)} />
        </SearchMarks>
      </div>
      <Attachments files={message.files} shareId={shareId} label="Images and files of the reply" />
      <Sources citations={metadata.citations} />
      <ToolRuns runs={metadata.tools} />
      {metadata.incomplete && (
        <div className="notice notice--warning" role="note">
          <Icon name="alert" size={15} /> The reply was cut short.
          {!readOnly && onRegenerate && (
            <button type="button" className="link-button" onClick={onRegenerate} disabled={busy}>
              Regenerate
            </button>
          )}
        </div>
      )}
      <div className="message__actions">
        {branch && <BranchSwitcher {...branch} disabled={busy} />}
        <CopyButton text={message.text} html={html} label="Copy reply" className="icon-button icon-button--small" />
        {!readOnly && !shareId && <ReadAloudButton messageId={message.id} chatId={message.chat_id} text={message.text} />}
        {!readOnly && onFeedback && feedbackButton('like', 'Good reply')}
        {!readOnly && onFeedback && feedbackButton('dislike', 'Bad reply')}
        {!readOnly && onRegenerate && (
          <IconButton
            small
            icon="refresh"
            iconSize={15}
            label="Regenerate reply"
            title="Regenerate"
            disabled={busy}
            onClick={onRegenerate}
          />
        )}
        {/* The provider says so (replies stored before it did are known by their provider's id). */}
        {(metadata.offline ?? metadata.provider === 'offline') && <OfflineNote />}
        {showModel && metadata.model && (
          <span className="badge badge--muted" title={metadata.auto_selected ? 'Chosen automatically' : 'Configured model'}>
            {metadata.model}
            {metadata.auto_selected ? ' (auto)' : ''}
          </span>
        )}
      </div>
      <Dialog open={askWhy} title="What was wrong with this reply?" onClose={() => setAskWhy(false)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            setAskWhy(false);
            onFeedback?.('dislike', why.trim() || null);
          }}
        >
          <Field label="Your feedback (optional)">
            {(control) => <textarea {...control} value={why} onChange={(event) => setWhy(event.target.value)} rows={4} maxLength={2000} />}
          </Field>
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={() => setAskWhy(false)}>
              Cancel
            </button>
            <button type="submit" className="button button--primary">
              Send feedback
            </button>
          </div>
        </form>
      </Dialog>
    </article>
  );
}
