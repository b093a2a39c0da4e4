import type { StoredFlags } from '../../../insider/api/insiderApi';
import { CopyButton } from '../../../../ui/CopyButton';
import { IconButton } from '../../../../ui/IconButton';
import { ReadAloudButton } from '../../../voice/components/ReadAloudButton';
import type { DisplayMessage } from '../../utils/history';
import { BranchSwitcher } from './BranchSwitcher';
import { FeedbackControls } from './FeedbackControls';
import type { BranchPlace, MessageActions } from './messageProps';
import { ReplyBadges } from './ReplyBadges';

type ReplyActionsProps = {
  message: DisplayMessage;
  branch?: BranchPlace;
  busy: boolean;
  /** None on a read-only page. */
  actions?: MessageActions;
  shareId?: string;
  /** The reply's body as light-themed HTML, for the copy. */
  html: () => string | undefined;
  /** The flags in force (read once per message: a hook per part would cost each message several queries' observers). */
  flags: StoredFlags;
};

/** Under a stored reply: its versions, copy, read aloud, feedback, regenerate, and which model wrote it. */
export function ReplyActions({ message, branch, busy, actions, shareId, html, flags }: ReplyActionsProps) {
  return (
    <div className="message__actions">
      {branch && actions && <BranchSwitcher {...branch} onSwitch={(index) => actions.switchBranch(message, index)} disabled={busy} />}
      <CopyButton text={message.text} html={html} label="Copy reply" className="icon-button icon-button--small" />
      {actions && !shareId && <ReadAloudButton messageId={message.id} chatId={message.chat_id} text={message.text} />}
      {actions && (
        <FeedbackControls
          feedback={message.feedback}
          reason={message.verbose_feedback}
          verbose={!!flags.dislike_button_verbose_feedback}
          onFeedback={(value, verbose) => actions.feedback(message, value, verbose)}
        />
      )}
      {actions && (
        <IconButton
          small
          icon="refresh"
          iconSize={15}
          label="Regenerate reply"
          title="Regenerate"
          disabled={busy}
          onClick={() => actions.regenerate(message)}
        />
      )}
      <ReplyBadges metadata={message.metadata ?? {}} showModel={!!flags.show_auto_model_selection} />
    </div>
  );
}
