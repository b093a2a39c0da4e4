import { searchQuery } from '@app/contracts/chat/search-terms';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { messageElementId } from '../components/message/messageProps';
import { latestLeafFrom, type DisplayMessage } from '../utils/history';
import type { SearchLinkState } from '../../search/hooks/useConversationSearch';
import { useSwitchBranch } from './chatQueries';

const MESSAGE_HASH = '#message-';
const HIGHLIGHT_MS = 4_000;

type LinkedMessageProps = {
  chatId: string | undefined;
  history: DisplayMessage[];
  all: DisplayMessage[];
  /** The conversation's messages have been read. */
  loaded: boolean;
  /** Brings a message into the list and the view; false when the list does not have it (yet). */
  reveal: (messageId: string) => boolean;
};

/**
 * A link to one message (from the memories page or a search result: #message-{id}): scrolled to,
 * focused and marked for a moment; on another branch, that branch is switched to first. From a
 * search, the query's words in it are marked (`marks`, its terms) while the link is open.
 */
export function useLinkedMessage({ chatId, history, all, loaded, reveal }: LinkedMessageProps) {
  const location = useLocation();
  const switchBranch = useSwitchBranch();
  const target = location.hash.startsWith(MESSAGE_HASH) ? decodeURIComponent(location.hash.slice(MESSAGE_HASH.length)) : null;
  const query = (location.state as Partial<SearchLinkState> | null)?.searchQuery;
  const marks = useMemo(() => (target && typeof query === 'string' ? searchQuery(query).terms : null), [target, query]);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const reached = useRef<string | null>(null);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  useEffect(() => {
    if (!target || reached.current === target || !chatId || !loaded) return;
    if (!history.some((m) => m.id === target)) {
      if (all.some((m) => m.id === target) && !switchBranch.isPending) {
        reached.current = null;
        switchBranch.mutate({ chatId, leafId: latestLeafFrom(target, all) });
      }
      return;
    }
    // The list renders only the messages near the view: it scrolls to this one, which then renders.
    if (!reveal(target)) return;
    reached.current = target;
    setHighlighted(target);
    let frames = 0;
    const focus = () => {
      const element = document.getElementById(messageElementId(target));
      if (element) element.focus({ preventScroll: true });
      else if (++frames < 120) frame.current = requestAnimationFrame(focus);
    };
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(focus);
  }, [target, chatId, loaded, history, all, switchBranch, reveal]);

  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return { target, highlighted, marks };
}
