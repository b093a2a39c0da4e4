import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line of one request carries, whichever service writes it. */
export interface RequestContext {
  request_id: string;
  user_id?: string | null;
  subject?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
