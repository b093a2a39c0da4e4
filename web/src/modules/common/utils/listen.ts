type Handlers<M> = { [K in keyof M]?: (event: M[K]) => void };

/** Adds the listeners; answers what removes them (an effect's cleanup). */
export function listen(target: Window, handlers: Handlers<WindowEventMap>): () => void;
export function listen(target: Document, handlers: Handlers<DocumentEventMap>): () => void;
export function listen(target: EventTarget, handlers: Record<string, unknown>): () => void {
  const entries = Object.entries(handlers) as [string, EventListener][];
  for (const [type, handler] of entries) target.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of entries) target.removeEventListener(type, handler);
  };
}
