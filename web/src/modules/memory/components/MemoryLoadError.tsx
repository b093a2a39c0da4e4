type MemoryLoadErrorProps = { error: string | null; onRetry: () => void };

/** Why the memories could not be read, with a way to try again. */
export function MemoryLoadError({ error, onRetry }: MemoryLoadErrorProps) {
  return (
    <div className="notice notice--error" role="alert">
      <span>{error}</span>
      <button type="button" className="link-button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
