import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Nest's default RPC filter replaces every unknown error with a generic object. Ours hands the
 * error on untouched, so the bus server can map it once (`toRpcError`): domain errors keep their
 * status and text, anything else becomes a logged 500.
 */
@Catch()
export class PassThroughRpcFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
