import { useMemo } from 'react';
import { useMessageWindow, useMoreNearEdge, type MoreMessages } from '../hooks/useMessageWindow';
import type { DisplayMessage } from '../utils/history';
import { messageRows } from '../utils/messageRows';
import { MessageItem } from './message/MessageItem';
import { WindowedMessages } from './WindowedMessages';

type SharedMessagesProps = {
  shareId: string;
  /** The shared branch, hidden messages left out. */
  messages: DisplayMessage[];
  /** The scroll area the list is in. */
  scroller: HTMLElement | null;
  /** The branch's later messages, read when the reader nears the end of those read. */
  later?: MoreMessages;
};

/** No version switcher on a shared page: no message's place among its versions is shown. */
const NO_PLACES = new Map();

/**
 * A shared conversation's messages, read-only (no actions; files asked for through the share),
 * opened at the first one; only those near the view are rendered, as on the conversation's page,
 * and the later ones are read as the reader nears the end of those read.
 */
export function SharedMessages({ shareId, messages, scroller, later }: SharedMessagesProps) {
  const rows = useMemo(() => messageRows(messages, NO_PLACES, null, null), [messages]);
  const virtualizer = useMessageWindow({ rows, scroller, chatId: shareId, opensAt: 'start', pinned: [] });
  // Near the end of what is read, the next page is asked for; it goes below, the view stays put.
  useMoreNearEdge(virtualizer, rows.length, 'end', later, scroller);
  return (
    <WindowedMessages
      rows={rows}
      virtualizer={virtualizer}
      renderRow={(row) => row.kind !== 'draft' && <MessageItem message={row.message} busy={false} shareId={shareId} />}
    />
  );
}
