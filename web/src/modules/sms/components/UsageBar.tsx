import { useId } from 'react';

type UsageBarProps = { used: number; allowance: number; period?: string };

const monthName = (period?: string) => {
  const match = period && /^(\d{4})-(\d{2})$/.exec(period);
  if (!match) return 'this month';
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return `in ${new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date)}`;
};

/** This month's texts against the allowance: a bar with its figures as its accessible name and value. */
export function UsageBar({ used, allowance, period }: UsageBarProps) {
  const labelId = useId();
  const safeAllowance = Math.max(0, allowance);
  const shown = Math.max(0, used);
  const share = safeAllowance === 0 ? 1 : Math.min(shown / safeAllowance, 1);
  const tone = share >= 1 ? 'full' : share >= 0.8 ? 'near' : 'ok';
  const text = `${shown} of ${safeAllowance} texts used ${monthName(period)}`;
  return (
    <div className={`usage usage--${tone}`}>
      <p id={labelId} className="usage__label">
        {text}
      </p>
      <div
        className="usage__track"
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={safeAllowance}
        aria-valuenow={Math.min(shown, safeAllowance)}
        aria-valuetext={text}
      >
        <div className="usage__fill" style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
      {tone === 'full' && (
        <p className="muted small">You have reached this month’s allowance: the assistant answers texts again next month.</p>
      )}
      {tone === 'near' && <p className="muted small">You are close to this month’s allowance.</p>}
    </div>
  );
}
