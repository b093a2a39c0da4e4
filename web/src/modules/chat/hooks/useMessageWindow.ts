import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, type Ref } from 'react';
import { estimateRowHeight, type MessageRow } from '../utils/messageRows';

/** What the conversation's page can ask of its list of messages. */
export type MessageListHandle = {
  /** Brings a message into the list and the view (a link to it); false when it is not in the list. */
  reveal: (messageId: string) => boolean;
  /** Goes to the end, and stays there as the reply grows (a reply is starting). */
  toEnd: () => void;
};

/** The space between two messages (px), as `.messages` has it. */
const GAP = 22;
/** How close to the end (px) still counts as reading the end: the list then follows a growing reply. */
const NEAR_END = 80;
/** Rows rendered beyond each edge of the view. */
const OVERSCAN = 4;

type MessageWindowOptions = {
  rows: MessageRow[];
  /** The scroll area (state, not a ref: it is an ancestor, whose ref is set after this list's first effects). */
  scroller: HTMLElement | null;
  /** The conversation (or the share): a new one opens where `opensAt` says. */
  chatId: string | undefined;
  /**
   * `end` (the conversation page): the list opens at its last message and follows a reply growing
   * there. `start` (a shared conversation, read from the beginning, that never grows): it opens at
   * its first message and nothing pulls the view to the end.
   */
  opensAt?: 'start' | 'end';
  /** Rows kept rendered wherever the view is (a linked message, the edited one), by key. */
  pinned: (string | null)[];
  handle?: Ref<MessageListHandle>;
};

/**
 * Only the messages near the view are rendered (and laid out): TanStack Virtual, each row measured
 * as it renders. By default the list opens at its end and stays there while a reply grows, as long
 * as the reader is there (`anchorTo: 'end'`: the growth is read from the rows' size observer, with
 * no layout forced per frame); `opensAt: 'start'` opens it at its top instead. The last two rows are
 * always rendered: the shortcuts (copy the last reply, edit the last message) use their buttons.
 */
export function useMessageWindow({ rows, scroller, chatId, opensAt = 'end', pinned, handle }: MessageWindowOptions) {
  const kept = [rows.length - 2, rows.length - 1, ...pinned.map((key) => rows.findIndex((row) => row.key === key))]
    .filter((i) => i >= 0)
    .join(',');
  const rangeExtractor = useCallback(
    (range: Range) => [...new Set([...defaultRangeExtractor(range), ...kept.split(',').filter(Boolean).map(Number)])].sort((a, b) => a - b),
    [kept],
  );
  const estimateSize = useCallback((index: number) => estimateRowHeight(rows[index]), [rows]);
  const getItemKey = useCallback((index: number) => rows[index].key, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: OVERSCAN,
    gap: GAP,
    anchorTo: opensAt,
    followOnAppend: opensAt === 'end',
    scrollEndThreshold: NEAR_END,
    useFlushSync: false,
  });

  // A conversation opens at its end (its last message), or at its top, once it has rows.
  const opened = useRef<string | undefined>(undefined);
  const hasRows = rows.length > 0;
  useLayoutEffect(() => {
    if (!hasRows || opened.current === (chatId ?? '')) return;
    opened.current = chatId ?? '';
    if (opensAt === 'end') virtualizer.scrollToEnd();
    else virtualizer.scrollToOffset(0);
  }, [chatId, hasRows, opensAt, virtualizer]);

  // Asked to go to the end: now, and again once the rows of the reply starting are there.
  const endWanted = useRef(false);
  useLayoutEffect(() => {
    if (!endWanted.current) return;
    endWanted.current = false;
    virtualizer.scrollToEnd();
  }, [rows.length, virtualizer]);

  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  useImperativeHandle(
    handle,
    () => ({
      reveal: (messageId) => {
        const index = rowsRef.current.findIndex((row) => row.kind !== 'draft' && row.message.id === messageId);
        if (index < 0) return false;
        virtualizer.scrollToIndex(index, { align: 'center' });
        return true;
      },
      toEnd: () => {
        endWanted.current = true;
        virtualizer.scrollToEnd();
      },
    }),
    [virtualizer],
  );
  return virtualizer;
}

/** A list's virtualizer, as `useMessageWindow` gives it. */
export type MessageWindow = ReturnType<typeof useMessageWindow>;

/** More messages of a list: whether there are, whether they are on their way, and asking for them. */
export type MoreMessages = { more: boolean; loading: boolean; load: () => void };

/** How close to an edge of the messages read (rows) the reader comes before more are asked for. */
const MORE_AHEAD_ROWS = 6;

/**
 * Asks for `more` as the window nears an edge of the rows read: the start (a conversation's older
 * pages, put above without moving the view: only once the reader is within a screen of the top)
 * or the end (a share's later pages, put below).
 */
export function useMoreNearEdge(
  virtualizer: MessageWindow,
  rowCount: number,
  edge: 'start' | 'end',
  more: MoreMessages | undefined,
  scroller: HTMLElement | null,
): void {
  const index = (edge === 'start' ? virtualizer.range?.startIndex : virtualizer.range?.endIndex) ?? 0;
  useEffect(() => {
    if (!more?.more || more.loading || !scroller) return;
    const near =
      edge === 'start' ? index <= MORE_AHEAD_ROWS && scroller.scrollTop <= scroller.clientHeight : index >= rowCount - 1 - MORE_AHEAD_ROWS;
    if (near) more.load();
  }, [more, scroller, index, rowCount, edge]);
}
