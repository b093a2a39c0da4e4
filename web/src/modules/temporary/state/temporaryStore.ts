import { createStore, useStore } from '../../common/state/createStore';

/** Whether the next new chat is a temporary one (the toggle on the new chat's header). */
export const temporaryStore = createStore(() => ({ wanted: false }));
export const useTemporaryWanted = () => useStore(temporaryStore, (s) => s.wanted);
export const setTemporaryWanted = (wanted: boolean) => temporaryStore.set({ wanted });
