import { DomainError } from '@app/platform';

/**
 * The DomainError a call is refused with. Anything else (a success, or an error that is not a
 * DomainError, which the user would see as a 500) fails the test.
 */
export async function domainRefusal(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

/** The refusal a call ends with: its status and the `detail` the user is told (see domainRefusal). */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; detail: string }> {
  const error = await domainRefusal(call);
  return { status: error.status, detail: error.detail };
}
