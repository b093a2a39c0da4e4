/** `phone_number: ...`, `files.0.mime_type: ...`: the field path the server puts before a message. */
const FIELD_PREFIX = /^\s*[a-z_][a-z0-9_]*(?:\.[a-z0-9_]+)*\s*:\s+/;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A server message as people should read it: no field names (each of `a: x; b: y` is cleaned). */
export function plainLoginError(message: string): string {
  const parts = message.split('; ').map((part) => (FIELD_PREFIX.test(part) ? capitalised(part.replace(FIELD_PREFIX, '')) : part));
  return parts.join('; ').trim() || 'Something went wrong. Try again.';
}
