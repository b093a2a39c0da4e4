import type { Conversation, Project } from '@app/contracts/chat';
import { useState, type ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { IconButton } from '../../../ui/IconButton';
import { showToast } from '../../../ui/toastStore';
import { closeSidebarOnNarrow } from '../../layout/state/sidebarStore';
import { useUi } from '../../layout/state/uiStore';
import { useMoveConversation, useProjects } from '../hooks/projectQueries';
import { useChatDrop } from '../hooks/useChatDrop';
import { ProjectDialog } from './ProjectDialog';
import './projects.css';

type ProjectsSectionProps = {
  /** The sidebar's conversations (temporary chats left out): each project lists its own. */
  conversations: Conversation[];
  renderConversation: (conversation: Conversation) => ReactNode;
};

/** "Projects" in the sidebar: a new project, then each project, collapsible, with its conversations; a conversation dropped on one moves into it. */
export function ProjectsSection({ conversations, renderConversation }: ProjectsSectionProps) {
  const { data: projects = [] } = useProjects();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const currentChatId = useUi((s) => s.currentChatId);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const currentProject = conversations.find((c) => c.chat_id === currentChatId)?.project_id ?? null;
  const toggle = (id: string, open?: boolean) =>
    setExpanded((now) => {
      const next = new Set(now);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <section className="projects" aria-labelledby="projects-heading">
      <div className="projects__head">
        <h2 id="projects-heading" className="conversation-list__group">
          Projects
        </h2>
        <IconButton small icon="plus" iconSize={15} label="New project" onClick={() => setCreating(true)} />
      </div>
      {projects.length === 0 ? (
        <button type="button" className="projects__empty" onClick={() => setCreating(true)}>
          <Icon name="folder" size={16} /> New project
        </button>
      ) : (
        <ul className="projects__list">
          {projects.map((project) => (
            <ProjectRow
              key={project.project_id}
              project={project}
              conversations={conversations.filter((c) => c.project_id === project.project_id)}
              open={expanded.has(project.project_id) || currentProject === project.project_id}
              onToggle={(open) => toggle(project.project_id, open)}
              renderConversation={renderConversation}
            />
          ))}
        </ul>
      )}
      <ProjectDialog
        open={creating}
        onClose={() => setCreating(false)}
        onSaved={(project) => {
          closeSidebarOnNarrow();
          navigate(`/projects/${project.project_id}`);
        }}
      />
    </section>
  );
}

type ProjectRowProps = {
  project: Project;
  conversations: Conversation[];
  open: boolean;
  onToggle: (open?: boolean) => void;
  renderConversation: (conversation: Conversation) => ReactNode;
};

function ProjectRow({ project, conversations, open, onToggle, renderConversation }: ProjectRowProps) {
  const navigate = useNavigate();
  const move = useMoveConversation();
  const drop = useChatDrop((chatId) => {
    if (conversations.some((c) => c.chat_id === chatId)) return;
    onToggle(true);
    move.mutate({ chatId, projectId: project.project_id }, { onError: () => showToast('The conversation could not be moved.', 'error') });
  });
  const listId = `project-${project.project_id}-conversations`;
  return (
    <li className="project" data-project-id={project.project_id} data-drop-over={drop.over} {...drop.props}>
      <div className="project__row">
        <button
          type="button"
          className="project__toggle"
          aria-expanded={open}
          aria-controls={listId}
          aria-label={`${open ? 'Collapse' : 'Expand'} ${project.name}`}
          onClick={() => onToggle()}
        >
          <Icon name="chevron-right" size={14} className="project__chevron" />
          <Icon name="folder" size={16} />
        </button>
        <NavLink to={`/projects/${project.project_id}`} className="project__link" title={project.name} onClick={closeSidebarOnNarrow}>
          {project.name}
        </NavLink>
        <span className="project__actions">
          <IconButton
            small
            icon="plus"
            iconSize={15}
            label={`New chat in ${project.name}`}
            onClick={() => {
              closeSidebarOnNarrow();
              navigate(`/chat?project=${encodeURIComponent(project.project_id)}`);
            }}
          />
        </span>
      </div>
      <ul id={listId} className="project__conversations" hidden={!open}>
        {conversations.map(renderConversation)}
        {conversations.length === 0 && <li className="muted small project__none">No conversations yet. Drag one here.</li>}
      </ul>
    </li>
  );
}
