import { Observable } from 'rxjs';

/**
 * An async job as the Observable a stream handler returns: what the job emits is passed on while
 * someone listens, its end completes the stream and its failure errors it. Unsubscribing (the
 * caller went away) aborts `signal`; the job decides what that means (a reply runs to its end
 * whoever listens, a file read stops).
 */
export function observeJob<T>(job: (emit: (value: T) => void, signal: AbortSignal) => Promise<void>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    job((value) => {
      if (!subscriber.closed) subscriber.next(value);
    }, controller.signal).then(
      () => subscriber.complete(),
      (error: unknown) => subscriber.error(error),
    );
    return () => controller.abort(new Error('The caller went away'));
  });
}

/** An async generator as an Observable; unsubscribing ends the generator (its `finally` blocks run). */
export function observeGenerator<T>(make: (signal: AbortSignal) => AsyncGenerator<T>): Observable<T> {
  return observeJob<T>(async (emit, signal) => {
    const iterator = make(signal);
    const stop = () => void iterator.return(undefined).catch(() => undefined);
    signal.addEventListener('abort', stop, { once: true });
    try {
      for (;;) {
        if (signal.aborted) break;
        const next = await iterator.next();
        if (next.done) break;
        emit(next.value);
      }
    } finally {
      signal.removeEventListener('abort', stop);
    }
  });
}
