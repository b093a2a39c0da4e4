import { createStore, useStore } from '../../common/state/createStore';

/** The other UI state of section 2. */
export type UiState = {
  shareChatModalOpen: boolean;
  shareChatButtonVisible: boolean;
  toggleEntityDetailOpen: boolean;
  entityDetailData: unknown;
  /** The chat shown in the shell; cleared outside /chat/ and /share/. */
  currentChatId: string | null;
};

export const uiStore = createStore<UiState>(() => ({
  shareChatModalOpen: false,
  shareChatButtonVisible: false,
  toggleEntityDetailOpen: false,
  entityDetailData: null,
  currentChatId: null,
}));

export const useUi = <T>(selector: (state: UiState) => T) => useStore(uiStore, selector);

/** The current chat id is cleared when the path is not under /chat/ or /share/. */
export function keepsCurrentChat(pathname: string): boolean {
  return pathname.startsWith('/chat/') || pathname.startsWith('/share/');
}

export function syncCurrentChat(pathname: string): void {
  if (!keepsCurrentChat(pathname)) uiStore.set({ currentChatId: null, shareChatButtonVisible: false, shareChatModalOpen: false });
}
