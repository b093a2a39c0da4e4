import { Icon } from '../../../ui/Icon';
import { setTemporaryWanted, useTemporaryWanted } from '../state/temporaryStore';

/** On a new chat: make it temporary (pressed) or not. */
export function TemporaryToggle() {
  const wanted = useTemporaryWanted();
  return (
    <button
      type="button"
      className="button button--secondary button--small temporary-toggle"
      aria-pressed={wanted}
      title="A temporary chat is not kept in your history or memory"
      onClick={() => setTemporaryWanted(!wanted)}
    >
      <Icon name={wanted ? 'check' : 'clock'} size={15} /> Temporary chat
    </button>
  );
}
