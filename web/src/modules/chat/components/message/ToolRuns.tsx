import type { ToolRun } from '@app/contracts/chat';

type ToolRunsProps = { runs: ToolRun[] | undefined };

const STATUS_LABELS: Record<ToolRun['status'], string> = {
  ok: 'done',
  error: 'failed',
  refused: 'refused',
  timeout: 'timed out',
  cancelled: 'stopped',
};

/** The tools the model used for a reply, collapsed under it: each one's name, outcome, and arguments on demand. */
export function ToolRuns({ runs }: ToolRunsProps) {
  if (!runs?.length) return null;
  return (
    <details className="tool-runs">
      <summary>
        Used {runs.length === 1 ? 'a tool' : `${runs.length} tools`}: {[...new Set(runs.map((run) => run.name))].join(', ')}
      </summary>
      <ol className="tool-runs__list">
        {runs.map((run) => (
          <li key={run.call_id} className="tool-run" data-status={run.status}>
            <span className="tool-run__name">{run.name}</span> <span className="tool-run__status">({STATUS_LABELS[run.status]})</span>
            {run.summary && <span className="tool-run__summary"> — {run.summary}</span>}
            <pre className="tool-run__arguments" aria-label={`Arguments of ${run.name}`}>
              {typeof run.arguments === 'string' ? run.arguments : JSON.stringify(run.arguments, null, 2)}
            </pre>
          </li>
        ))}
      </ol>
    </details>
  );
}
