import { Observable } from 'rxjs';

/** An async generator as the Observable a stream handler returns; unsubscribing (the caller went away) ends the generator. */
export function observableOf<T>(make: (signal: AbortSignal) => AsyncGenerator<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    const iterator = make(controller.signal);
    void (async () => {
      try {
        for (;;) {
          if (controller.signal.aborted) break;
          const next = await iterator.next();
          if (next.done) break;
          subscriber.next(next.value);
        }
        subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      }
    })();
    return () => {
      controller.abort(new Error('The caller went away'));
      void iterator.return(undefined).catch(() => undefined);
    };
  });
}
