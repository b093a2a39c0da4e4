import type { Conversation, Project, ProjectDeleteChoice } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

export const FAILED_FETCH_PROJECTS = 'Failed to fetch projects';

const item = (id: string) => ({ params: { project_id: id } });

export type ProjectFields = { name?: string; instructions?: string; files?: { object_store_object_id: string }[] };

/** GET /projects/: the caller's projects, by name. */
export const fetchProjects = (): Promise<Project[]> => call(API.projects.list, {}, { orElse: [], failure: FAILED_FETCH_PROJECTS });

export const createProject = (body: ProjectFields & { name: string }): Promise<Project> => call(API.projects.create, { body });

export const updateProject = (id: string, body: ProjectFields): Promise<Project> => call(API.projects.update, { ...item(id), body });

/** Deletes a project: its conversations with it (`delete`), or moved out of it (`keep`). */
export const deleteProject = (id: string, conversations: ProjectDeleteChoice) =>
  call(API.projects.remove, { ...item(id), query: { conversations } });

/** Moves a conversation into a project, or out of its project (null). */
export const moveConversation = (chatId: string, projectId: string | null): Promise<Conversation> =>
  call(API.chat.update, { params: { chat_id: chatId }, body: { project_id: projectId } });
