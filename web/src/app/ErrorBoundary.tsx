import { Component, type ErrorInfo, type ReactNode } from 'react';

type ErrorBoundaryProps = { children: ReactNode; fallback?: ReactNode };
type ErrorBoundaryState = { failed: boolean };

export const RENDER_FAILURE_TEXT = 'Something went wrong';

/** A rendering failure shows "Something went wrong" (section 2) instead of a blank page. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Rendering failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback ?? <RenderFailure onRetry={() => this.setState({ failed: false })} />;
  }
}

export function RenderFailure({ onRetry }: { onRetry?: () => void }) {
  return (
    <div className="render-failure" role="alert">
      <p>{RENDER_FAILURE_TEXT}</p>
      {onRetry && (
        <button type="button" className="button button--secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
