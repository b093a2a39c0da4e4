import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { addMcpServer, fetchMcpServers, refreshMcpServer, removeMcpServer, updateMcpServer } from '../api/mcpApi';

const key = (userId: string | null) => ['mcp-servers', userId] as const;

export function useMcpServers() {
  const { userId, ready } = useDataSession();
  return useQuery({ queryKey: key(userId), queryFn: fetchMcpServers, enabled: ready });
}

export function useMcpActions() {
  const client = useQueryClient();
  const { userId } = useDataSession();
  const refresh = () => client.invalidateQueries({ queryKey: key(userId) });
  return {
    add: useMutation({ mutationFn: addMcpServer, onSettled: refresh }),
    toggle: useMutation({
      mutationFn: (v: { id: string; tool: string; enabled: boolean }) => updateMcpServer(v.id, { tools: { [v.tool]: v.enabled } }),
      onSettled: refresh,
    }),
    relist: useMutation({ mutationFn: refreshMcpServer, onSettled: refresh }),
    remove: useMutation({ mutationFn: removeMcpServer, onSettled: refresh }),
  };
}
