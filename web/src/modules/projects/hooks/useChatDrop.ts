import { useState, type DragEvent } from 'react';
import { carriesChat, droppedChat } from '../utils/dnd';

/**
 * A place a sidebar conversation can be dropped on (a project, or the list outside projects): the
 * props to spread on it, and whether a conversation is over it (for the highlight).
 */
export function useChatDrop(onDrop: (chatId: string) => void) {
  const [over, setOver] = useState(false);
  const accept = (event: DragEvent) => {
    if (!carriesChat(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  return {
    over,
    props: {
      onDragEnter: accept,
      onDragOver: accept,
      onDragLeave: (event: DragEvent) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      },
      onDrop: (event: DragEvent) => {
        setOver(false);
        const chatId = droppedChat(event);
        if (!chatId) return;
        event.preventDefault();
        onDrop(chatId);
      },
    },
  };
}
