import { Icon } from '../../../../ui/Icon';

type BranchSwitcherProps = { index: number; count: number; onSwitch: (index: number) => void; disabled?: boolean };

/** ‹ 2 / 3 › between the alternatives of a message. */
export function BranchSwitcher({ index, count, onSwitch, disabled }: BranchSwitcherProps) {
  if (count < 2) return null;
  return (
    <span className="branches" role="group" aria-label="Versions">
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Previous version"
        disabled={disabled || index === 0}
        onClick={() => onSwitch(index - 1)}
      >
        <Icon name="chevron-left" size={14} />
      </button>
      <span className="branches__count">
        {index + 1} / {count}
      </span>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Next version"
        disabled={disabled || index === count - 1}
        onClick={() => onSwitch(index + 1)}
      >
        <Icon name="chevron-right" size={14} />
      </button>
    </span>
  );
}
