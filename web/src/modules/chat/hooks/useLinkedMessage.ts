import { searchQuery } from '@app/contracts/chat/search-terms';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { messageElementId } from '../components/MessageItem';
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
  /** The page scrolls to the linked message (it stops following the end). */
  onReach: () => void;
};

/**
 * A link to one message (from the memories page or a search result: #message-{id}): scrolled to,
 * focused and marked for a moment; on another branch, that branch is switched to first. From a
 * search, the query's words in it are marked (`marks`, its terms) while the link is open.
 */
export function useLinkedMessage({ chatId, history, all, loaded, onReach }: LinkedMessageProps) {
  const location = useLocation();
  const switchBranch = useSwitchBranch();
  const target = location.hash.startsWith(MESSAGE_HASH) ? decodeURIComponent(location.hash.slice(MESSAGE_HASH.length)) : null;
  const query = (location.state as Partial<SearchLinkState> | null)?.searchQuery;
  const marks = useMemo(() => (target && typeof query === 'string' ? searchQuery(query).terms : null), [target, query]);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const reached = useRef<string | null>(null);

  useEffect(() => {
    if (!target || reached.current === target || !chatId || !loaded) return;
    if (!history.some((m) => m.id === target)) {
      if (all.some((m) => m.id === target) && !switchBranch.isPending) {
        reached.current = null;
        switchBranch.mutate({ chatId, leafId: latestLeafFrom(target, all) });
      }
      return;
    }
    const element = document.getElementById(messageElementId(target));
    if (!element) return;
    reached.current = target;
    onReach();
    setHighlighted(target);
    element.scrollIntoView({ block: 'center' });
    requestAnimationFrame(() => document.getElementById(messageElementId(target))?.focus({ preventScroll: true }));
  }, [target, chatId, loaded, history, all, switchBranch, onReach]);

  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return { target, highlighted, marks };
}
