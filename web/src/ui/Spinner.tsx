type SpinnerProps = { label?: string; size?: 'small' | 'large' };

export function Spinner({ label = 'Loading', size = 'small' }: SpinnerProps) {
  return (
    <span className={`spinner spinner--${size}`} role="status">
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

/** The placeholder shown while auth is loading or a page's code arrives. */
export function LoadingScreen({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading-screen">
      <Spinner size="large" label={label} />
    </div>
  );
}
