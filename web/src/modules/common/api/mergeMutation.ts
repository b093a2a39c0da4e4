import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * A change merged at once into one object the query client holds, replaced by the server's answer
 * (when there is one), and the value held before put back on failure (logged; the caller gets the
 * error). `empty` stands for the value before the first read. Spread into useMutation's options.
 */
export function mergeMutation<D extends object | null, P extends object>(
  client: QueryClient,
  key: QueryKey,
  send: (patch: P) => Promise<D | undefined>,
  empty: D,
) {
  return {
    mutationFn: send,
    onMutate: async (patch: P) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<D>(key) ?? empty;
      client.setQueryData(key, { ...(previous ?? {}), ...patch });
      return { previous };
    },
    onSuccess: (answer: D | undefined) => {
      if (answer) client.setQueryData(key, answer);
    },
    onError: (failure: Error, _patch: P, context: { previous: D } | undefined) => {
      console.error(failure);
      if (context) client.setQueryData(key, context.previous);
    },
  };
}
