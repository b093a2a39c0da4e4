import type { Conversation } from '@app/contracts/chat';
import { useState } from 'react';
import { Dialog } from '../../../ui/Dialog';
import { showToast } from '../../../ui/toastStore';
import { UNTITLED } from '../../chat/utils/titles';
import { useMoveConversation, useProjects } from '../hooks/projectQueries';

type MoveToProjectDialogProps = {
  /** The conversation to move (null: the dialog is closed). */
  conversation: Pick<Conversation, 'chat_id' | 'conversation_title' | 'project_id'> | null;
  onClose: () => void;
};

/** "Move to project…": the keyboard's way (and a phone's) to put a conversation in a project or take it out. */
export function MoveToProjectDialog({ conversation, onClose }: MoveToProjectDialogProps) {
  return (
    <Dialog open={!!conversation} title="Move to project" onClose={onClose}>
      {conversation && <MoveForm key={conversation.chat_id} conversation={conversation} onClose={onClose} />}
    </Dialog>
  );
}

/** The choice, starting at the project the conversation is in (made afresh each time the dialog opens). */
function MoveForm({ conversation, onClose }: { conversation: NonNullable<MoveToProjectDialogProps['conversation']>; onClose: () => void }) {
  const { data: projects = [] } = useProjects();
  const move = useMoveConversation();
  const [choice, setChoice] = useState<string>(conversation.project_id ?? '');
  const title = conversation.conversation_title || UNTITLED;
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        const projectId = choice || null;
        onClose();
        if (projectId === (conversation.project_id ?? null)) return;
        move.mutate(
          { chatId: conversation.chat_id, projectId },
          { onError: () => showToast('The conversation could not be moved.', 'error') },
        );
      }}
    >
      <fieldset className="project-choices">
        <legend>Where should “{title}” go?</legend>
        <label className="project-choice">
          <input type="radio" name="project" value="" checked={choice === ''} onChange={() => setChoice('')} />
          <span>No project</span>
        </label>
        {projects.map((project) => (
          <label key={project.project_id} className="project-choice">
            <input
              type="radio"
              name="project"
              value={project.project_id}
              checked={choice === project.project_id}
              onChange={() => setChoice(project.project_id)}
            />
            <span>{project.name}</span>
          </label>
        ))}
        {projects.length === 0 && <p className="muted small">You have no projects yet: create one in the sidebar.</p>}
      </fieldset>
      <div className="form__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button--primary">
          Move
        </button>
      </div>
    </form>
  );
}
