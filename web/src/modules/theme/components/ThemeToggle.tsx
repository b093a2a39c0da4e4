import { Icon } from '../../../ui/Icon';
import { toggleDarkMode, useDarkMode } from '../state/themeStore';

export function ThemeToggle() {
  const dark = useDarkMode();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={dark ? 'Switch to light theme' : 'Switch to dark theme'}
      aria-pressed={dark}
      title={dark ? 'Light theme' : 'Dark theme'}
      onClick={toggleDarkMode}
    >
      <Icon name={dark ? 'sun' : 'moon'} />
    </button>
  );
}
