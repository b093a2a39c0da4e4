import { createStore, useStore } from '../../common/state/createStore';

/** Whether the command palette (Ctrl/Cmd+K) is open. */
export const paletteStore = createStore(() => ({ open: false }));
export const usePaletteOpen = () => useStore(paletteStore, (s) => s.open);
export const setPaletteOpen = (open: boolean) => paletteStore.set({ open });
