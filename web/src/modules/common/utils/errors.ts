/** The text to show for a failure: its message, else the fallback (or the value itself). */
export function messageOf(error: unknown, fallback?: string): string {
  if (error instanceof Error) return error.message;
  return fallback ?? String(error);
}
