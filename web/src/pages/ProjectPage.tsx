import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useConversations } from '../modules/chat/hooks/chatQueries';
import { UNTITLED } from '../modules/chat/utils/titles';
import { ShellPage } from '../modules/layout/components/ShellPage';
import { DeleteProjectDialog } from '../modules/projects/components/DeleteProjectDialog';
import { ProjectDialog } from '../modules/projects/components/ProjectDialog';
import { useProjects } from '../modules/projects/hooks/projectQueries';
import { Icon } from '../ui/Icon';
import { Spinner } from '../ui/Spinner';
import '../modules/projects/components/projects.css';

/** /projects/:projectId: a project's instructions, files and conversations; a new chat in it; edit or delete it. */
export function ProjectPage() {
  const { projectId } = useParams();
  const navigate = useNavigate();
  const { data: projects, status } = useProjects();
  const { data: conversations } = useConversations();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const project = projects?.find((p) => p.project_id === projectId);
  if (status === 'pending')
    return (
      <ShellPage title="Project" className="project-page">
        <Spinner label="Loading the project" />
      </ShellPage>
    );
  if (!project)
    return (
      <ShellPage title="Project" className="project-page">
        <p className="empty-state muted">This project does not exist (any more).</p>
        <Link to="/chat">Back to the chat</Link>
      </ShellPage>
    );
  const inProject = (conversations ?? []).filter((c) => c.project_id === project.project_id);
  return (
    <ShellPage title={project.name} className="project-page">
      <div className="project-page__actions">
        <button
          type="button"
          className="button button--primary"
          onClick={() => navigate(`/chat?project=${encodeURIComponent(project.project_id)}`)}
        >
          <Icon name="plus" size={16} /> New chat in this project
        </button>
        <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
          <Icon name="edit" size={16} /> Edit
        </button>
        <button type="button" className="button button--secondary" onClick={() => setDeleting(true)}>
          <Icon name="trash" size={16} /> Delete
        </button>
      </div>

      <section aria-labelledby="project-instructions" className="project-page__section">
        <h2 id="project-instructions">Instructions</h2>
        {project.instructions.trim() ? (
          <p className="project-page__instructions">{project.instructions}</p>
        ) : (
          <p className="muted">None yet. Instructions are added to the prompt of every conversation in this project.</p>
        )}
      </section>

      <section aria-labelledby="project-files" className="project-page__section">
        <h2 id="project-files">Files</h2>
        {project.files.length ? (
          <ul className="project-files">
            {project.files.map((file) => (
              <li key={file.object_store_object_id} className="project-file">
                <Icon name="file" size={16} />
                <span className="project-file__name">{file.filename}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">None yet. Files added here are given to the assistant in every conversation of this project.</p>
        )}
      </section>

      <section aria-labelledby="project-conversations" className="project-page__section">
        <h2 id="project-conversations">Conversations</h2>
        {inProject.length ? (
          <ul className="project-page__conversations">
            {inProject.map((c) => (
              <li key={c.chat_id}>
                <Link to={`/chat/${c.chat_id}`}>{c.conversation_title || UNTITLED}</Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">
            None yet. Start one here, drag a conversation onto the project in the sidebar, or use “Move to project…” in a conversation’s
            menu.
          </p>
        )}
      </section>

      <ProjectDialog open={editing} project={project} onClose={() => setEditing(false)} />
      <DeleteProjectDialog project={deleting ? project : null} onClose={() => setDeleting(false)} onDeleted={() => navigate('/chat')} />
    </ShellPage>
  );
}
