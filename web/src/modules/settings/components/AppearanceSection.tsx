import { Icon } from '../../../ui/Icon';
import { setDarkMode, useDarkMode } from '../../theme/state/themeStore';

/** The theme: dark (the default) or light. */
export function AppearanceSection() {
  const dark = useDarkMode();
  return (
    <fieldset className="segmented">
      <legend className="visually-hidden">Theme</legend>
      <label>
        <input type="radio" name="theme" checked={dark} onChange={() => setDarkMode(true)} /> <Icon name="moon" size={16} /> Dark
      </label>
      <label>
        <input type="radio" name="theme" checked={!dark} onChange={() => setDarkMode(false)} /> <Icon name="sun" size={16} /> Light
      </label>
    </fieldset>
  );
}
