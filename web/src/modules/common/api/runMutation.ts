import { MutationObserver, type MutationOptions, type QueryClient } from '@tanstack/react-query';

/**
 * Runs one mutation with options of its own (a scope per item, so that calls about one item run
 * one after the other) through the query client: it shows in useMutationState and useIsMutating
 * like any other, and its promise settles after its callbacks have run.
 */
export async function runMutation<TData, TVariables, TContext>(
  client: QueryClient,
  options: MutationOptions<TData, Error, TVariables, TContext>,
  variables: TVariables,
): Promise<TData> {
  const observer = new MutationObserver(client, options);
  try {
    return await observer.mutate(variables);
  } finally {
    observer.reset(); // the mutation stays in the cache until its gcTime, like any finished one
  }
}
