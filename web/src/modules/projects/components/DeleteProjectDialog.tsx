import type { Project, ProjectDeleteChoice } from '@app/contracts/chat';
import { useState } from 'react';
import { Dialog } from '../../../ui/Dialog';
import { showToast } from '../../../ui/toastStore';
import { useProjectActions } from '../hooks/projectQueries';

type DeleteProjectDialogProps = {
  project: Project | null;
  onClose: () => void;
  /** After the project is gone (with the ids of the conversations deleted or moved out). */
  onDeleted?: (answer: { conversations: ProjectDeleteChoice; chat_ids: string[] }) => void;
};

/** Deleting a project asks what becomes of its conversations: kept (moved out of it) or deleted with it. */
export function DeleteProjectDialog({ project, onClose, onDeleted }: DeleteProjectDialogProps) {
  const { remove } = useProjectActions();
  const [choice, setChoice] = useState<ProjectDeleteChoice>('keep');
  const count = project?.conversation_count ?? 0;
  const conversations = count === 1 ? '1 conversation' : `${count} conversations`;
  return (
    <Dialog
      open={!!project}
      title="Delete project?"
      onClose={() => {
        setChoice('keep');
        onClose();
      }}
    >
      <form
        className="form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!project) return;
          // mutateAsync: the page that opened this may be gone by the answer (its project is), the promise still settles.
          remove
            .mutateAsync({ id: project.project_id, conversations: choice })
            .then((answer) => onDeleted?.(answer))
            .catch(() => showToast('The project could not be deleted.', 'error'));
          setChoice('keep');
          onClose();
        }}
      >
        <p>“{project?.name}” will be deleted, with its instructions and its list of files (the files themselves stay in your uploads).</p>
        <fieldset className="project-choices">
          <legend>What should happen to its {conversations}?</legend>
          <label className="project-choice">
            <input type="radio" name="conversations" value="keep" checked={choice === 'keep'} onChange={() => setChoice('keep')} />
            <span>Keep them (moved out of the project)</span>
          </label>
          <label className="project-choice">
            <input type="radio" name="conversations" value="delete" checked={choice === 'delete'} onChange={() => setChoice('delete')} />
            <span>Delete them too (this cannot be undone)</span>
          </label>
        </fieldset>
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--danger">
            Delete project
          </button>
        </div>
      </form>
    </Dialog>
  );
}
