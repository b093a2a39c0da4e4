import { Link, useSearchParams } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { useConversations } from '../../chat/hooks/chatQueries';
import { useProjects } from '../hooks/projectQueries';

/** The project a conversation is in (or a new chat will start in), above the composer. */
export function ProjectBanner({ chatId }: { chatId: string | undefined }) {
  const [params] = useSearchParams();
  const { data: conversations } = useConversations();
  const { data: projects } = useProjects();
  const projectId = chatId ? conversations?.find((c) => c.chat_id === chatId)?.project_id : params.get('project');
  const project = projectId ? projects?.find((p) => p.project_id === projectId) : undefined;
  if (!project) return null;
  return (
    <p className="project-banner" role="note">
      <Icon name="folder" size={16} />
      <span>
        {chatId ? 'In project ' : 'New chat in project '}
        <Link to={`/projects/${project.project_id}`}>{project.name}</Link>
        {project.instructions.trim() || project.files.length ? ': its instructions and files are given to the assistant.' : '.'}
      </span>
    </p>
  );
}
