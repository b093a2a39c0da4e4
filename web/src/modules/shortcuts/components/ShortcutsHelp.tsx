import { Dialog } from '../../../ui/Dialog';
import { setHelpOpen, useHelpOpen } from '../state/helpStore';
import { keysLabel, SHORTCUTS } from '../utils/shortcuts';

/** The help sheet (Ctrl/Cmd+/): every shortcut and its keys, as this platform writes them. */
export function ShortcutsHelp() {
  const open = useHelpOpen();
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={() => setHelpOpen(false)} className="shortcuts-help">
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.id}>
              <th scope="row">{shortcut.label}</th>
              <td>
                {keysLabel(shortcut.keys).map((key, i) => (
                  <kbd key={i}>{key}</kbd>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
