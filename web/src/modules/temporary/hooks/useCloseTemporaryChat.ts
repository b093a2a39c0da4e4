import { API } from '@app/contracts/gateway';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../common/api/http';
import { listen } from '../../common/utils/listen';
import { conversationsKey } from '../../chat/hooks/chatQueries';
import type { Conversation } from '@app/contracts/chat';

/** Deletes a temporary chat (keepalive: it also goes out while the page unloads); failures are left to the server's sweep. */
function close(chatId: string): void {
  void call(API.chat.remove, { params: { chat_id: chatId } }, { keepalive: true }).catch(() => undefined);
}

/**
 * A temporary chat is closed, hence deleted, when its user leaves it: another conversation or a new
 * chat, sign-out, or the tab closed. (The server deletes what this misses once its 24 hours are up.)
 */
export function useCloseTemporaryChat(chatId: string | undefined, temporary: boolean) {
  const client = useQueryClient();
  useEffect(() => {
    if (!chatId || !temporary) return;
    // An effect run again at once (React's development double run) is not a departure.
    clearTimeout(leaving.get(chatId));
    const stop = listen(window, { pagehide: () => close(chatId) });
    return () => {
      stop();
      leaving.set(
        chatId,
        setTimeout(() => {
          leaving.delete(chatId);
          close(chatId);
          client.setQueryData<Conversation[]>(conversationsKey, (list) => list?.filter((c) => c.chat_id !== chatId));
        }, 0),
      );
    };
  }, [chatId, temporary, client]);
}

const leaving = new Map<string, ReturnType<typeof setTimeout>>();
