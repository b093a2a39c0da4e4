import type { DragEvent } from 'react';

/** The drag data type of a conversation dragged from the sidebar (its chat id). */
export const CHAT_DRAG_TYPE = 'application/x-assistant-chat';

/** Starts dragging a conversation (its id, and its link for drops elsewhere). */
export function startChatDrag(event: DragEvent, chatId: string): void {
  event.dataTransfer.setData(CHAT_DRAG_TYPE, chatId);
  event.dataTransfer.setData('text/uri-list', `${location.origin}/chat/${chatId}`);
  event.dataTransfer.effectAllowed = 'move';
}

/** Whether a drag carries a conversation (its data can only be read on drop). */
export const carriesChat = (event: DragEvent) => event.dataTransfer.types.includes(CHAT_DRAG_TYPE);

/** The conversation a drop carries, if it carries one. */
export const droppedChat = (event: DragEvent): string | null => event.dataTransfer.getData(CHAT_DRAG_TYPE) || null;
