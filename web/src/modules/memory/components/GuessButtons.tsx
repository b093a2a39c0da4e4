import type { UserMemory } from '@app/contracts/memory';
import { Icon } from '../../../ui/Icon';
import { useMemoryActions } from '../hooks/memoryQueries';

type GuessButtonsProps = {
  memory: UserMemory;
  disabled: boolean;
  /** After the confirmation starts (the buttons are about to go: the caller moves the focus on). */
  onConfirm: () => void;
};

/** Confirm or reject what the assistant guessed; a rejected guess is removed (and can be undone). */
export function GuessButtons({ memory, disabled, onConfirm }: GuessButtonsProps) {
  const actions = useMemoryActions();
  return (
    <>
      <button
        type="button"
        className="button button--primary button--small"
        disabled={disabled}
        aria-label={`Confirm: ${memory.text}`}
        onClick={onConfirm}
      >
        <Icon name="check" size={16} /> Confirm
      </button>
      <button
        type="button"
        className="button button--secondary button--small"
        disabled={disabled}
        aria-label={`Reject: ${memory.text}`}
        onClick={() => void actions.reject(memory.user_memory_id)}
      >
        <Icon name="close" size={16} /> Reject
      </button>
    </>
  );
}
