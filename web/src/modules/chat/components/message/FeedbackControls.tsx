import { Dialog } from '../../../../ui/Dialog';
import { Field } from '../../../../ui/Field';
import { Icon } from '../../../../ui/Icon';
import { useFeedbackPrompt, type FeedbackValue } from '../../hooks/useFeedbackPrompt';

type FeedbackControlsProps = {
  feedback: FeedbackValue;
  reason: string | null;
  /** The flag: a dislike asks why. */
  verbose: boolean;
  onFeedback: (feedback: FeedbackValue, verbose?: string | null) => void;
};

/** Good reply / bad reply, and the dialog asking what was wrong. */
export function FeedbackControls({ feedback, reason, verbose, onFeedback }: FeedbackControlsProps) {
  const prompt = useFeedbackPrompt(feedback, reason, verbose, onFeedback);
  const button = (kind: 'like' | 'dislike', label: string) => (
    <button
      type="button"
      className="icon-button icon-button--small"
      aria-label={label}
      aria-pressed={feedback === kind}
      title={label}
      onClick={() => prompt.press(kind)}
    >
      <Icon name={kind} size={15} />
    </button>
  );
  return (
    <>
      {button('like', 'Good reply')}
      {button('dislike', 'Bad reply')}
      <Dialog open={prompt.asking} title="What was wrong with this reply?" onClose={prompt.cancel}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            prompt.submit();
          }}
        >
          <Field label="Your feedback (optional)">
            {(control) => (
              <textarea
                {...control}
                value={prompt.reason}
                onChange={(event) => prompt.setReason(event.target.value)}
                rows={4}
                maxLength={2000}
              />
            )}
          </Field>
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={prompt.cancel}>
              Cancel
            </button>
            <button type="submit" className="button button--primary">
              Send feedback
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
