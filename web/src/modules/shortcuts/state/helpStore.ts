import { createStore, useStore } from '../../common/state/createStore';

/** Whether the keyboard shortcuts' help sheet (Ctrl/Cmd+/) is open. */
export const helpStore = createStore(() => ({ open: false }));
export const useHelpOpen = () => useStore(helpStore, (s) => s.open);
export const setHelpOpen = (open: boolean) => helpStore.set({ open });
