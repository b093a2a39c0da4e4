import type { Caller } from '@app/contracts';
import { DomainError } from '../errors/domain-error';

/** The user a call acts for: always the verified caller, never an id from the request body. */
export function userIdOf(caller: Caller): string {
  if (!caller.user_id) throw DomainError.unauthorized();
  return caller.user_id;
}
