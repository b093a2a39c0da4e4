import { useMutation } from '@tanstack/react-query';
import { messageOf } from '../utils/errors';

type BusyActionOptions<R> = {
  /** What to say when the failure has no message of its own. */
  fallback: string;
  onSuccess?: (result: R) => unknown;
  /** Told the failure's text (a toast, say); the text is also kept as `error` until the next run. */
  onError?: (message: string) => void;
};

export type BusyAction<A> = {
  run: (args: A) => void;
  busy: boolean;
  /** Why the last run failed; cleared when the next one starts. */
  error: string | null;
  /** Forgets the last failure. */
  reset: () => void;
};

/**
 * A call the user starts (save, export, delete...): busy while it runs, its failure kept as a
 * message. A mutation underneath, so it shares the query client's rules (and its logout reset).
 */
export function useBusyAction<A = void, R = unknown>(action: (args: A) => Promise<R>, options: BusyActionOptions<R>): BusyAction<A> {
  const { fallback, onSuccess, onError } = options;
  const mutation = useMutation({
    mutationFn: action,
    onSuccess: (result) => onSuccess?.(result),
    onError: (error) => onError?.(messageOf(error, fallback)),
  });
  return {
    run: (args: A) => mutation.mutate(args),
    busy: mutation.isPending,
    error: mutation.error ? messageOf(mutation.error, fallback) : null,
    reset: mutation.reset,
  };
}
