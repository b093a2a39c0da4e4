import type { Conversation, ProjectDeleteChoice } from '@app/contracts/chat';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { conversationsKey, patchConversation } from '../../chat/hooks/chatQueries';
import { createProject, deleteProject, fetchProjects, moveConversation, updateProject, type ProjectFields } from '../api/projectsApi';

export const projectKeys = { list: (userId: string | null) => ['projects', userId] as const };

/** The caller's projects (with how many conversations each holds). */
export function useProjects() {
  const { userId, ready } = useDataSession();
  return useQuery({ queryKey: projectKeys.list(userId), queryFn: fetchProjects, enabled: ready });
}

/** Creating, editing and deleting projects; every change refreshes the projects, and the conversations where they move. */
export function useProjectActions() {
  const client = useQueryClient();
  const { userId } = useDataSession();
  const refresh = () => client.invalidateQueries({ queryKey: ['projects', userId] });
  return {
    create: useMutation({ mutationFn: createProject, onSettled: refresh }),
    update: useMutation({ mutationFn: ({ id, ...body }: ProjectFields & { id: string }) => updateProject(id, body), onSettled: refresh }),
    remove: useMutation({
      mutationFn: ({ id, conversations }: { id: string; conversations: ProjectDeleteChoice }) => deleteProject(id, conversations),
      onSuccess: (answer) => {
        // The conversations deleted or moved out, at once; then the list as the server has it.
        client.setQueryData<Conversation[]>(conversationsKey, (list) =>
          answer.conversations === 'delete'
            ? list?.filter((c) => !answer.chat_ids.includes(c.chat_id))
            : list?.map((c) => (answer.chat_ids.includes(c.chat_id) ? { ...c, project_id: null } : c)),
        );
      },
      onSettled: () => {
        void refresh();
        void client.invalidateQueries({ queryKey: conversationsKey });
      },
    }),
  };
}

/** Moves a conversation into a project or out of it (null): shown at once, put back if the server refuses. */
export function useMoveConversation() {
  const client = useQueryClient();
  const { userId } = useDataSession();
  return useMutation({
    mutationFn: ({ chatId, projectId }: { chatId: string; projectId: string | null }) => moveConversation(chatId, projectId),
    onMutate: ({ chatId, projectId }) => {
      const previous = client.getQueryData<Conversation[]>(conversationsKey)?.find((c) => c.chat_id === chatId)?.project_id ?? null;
      patchConversation(client, chatId, { project_id: projectId });
      return { previous };
    },
    onError: (error, { chatId }, context) => {
      console.error(error);
      if (context) patchConversation(client, chatId, { project_id: context.previous });
    },
    onSuccess: (conversation) => patchConversation(client, conversation.chat_id, conversation),
    onSettled: () => client.invalidateQueries({ queryKey: ['projects', userId] }),
  });
}
