import type { UserMemory } from '@app/contracts/memory';
import { MEMORY_TEXT_MAX } from '../api/memoryApi';

/** Checks a new text as the server would (not empty, at most 500 characters); the error to show, or null. */
export function memoryTextProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'A memory cannot be empty.';
  if (trimmed.length > MEMORY_TEXT_MAX) return `A memory can be at most ${MEMORY_TEXT_MAX} characters.`;
  return null;
}

/** An inference the user has not confirmed yet: to confirm or reject. */
export const awaitsConfirmation = (memory: UserMemory) => memory.is_inference && !memory.is_confirmed;
