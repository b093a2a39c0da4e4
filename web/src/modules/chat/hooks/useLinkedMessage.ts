import { searchQuery } from '@app/contracts/chat/search-terms';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { fetchMessagePage } from '../api/chatApi';
import { messageElementId } from '../components/message/messageProps';
import type { DisplayMessage } from '../utils/history';
import type { SearchLinkState } from '../../search/hooks/useConversationSearch';
import { useSwitchBranch } from './chatQueries';
import type { MoreMessages } from './useMessageWindow';

const MESSAGE_HASH = '#message-';
const HIGHLIGHT_MS = 4_000;

type LinkedMessageProps = {
  chatId: string | undefined;
  /** The active branch as read so far (its newest pages). */
  history: DisplayMessage[];
  /** The conversation's messages have been read (a first page). */
  loaded: boolean;
  /** The branch's older pages. */
  older: MoreMessages;
  /** Brings a message into the list and the view; false when the list does not have it (yet). */
  reveal: (messageId: string) => boolean;
};

/** Where the branch through a linked message ends (null: no such message of the conversation). */
type LinkedBranch = { target: string; leaf: string | null };

/**
 * A link to one message (from the memories page or a search result: #message-{id}): scrolled to,
 * focused and marked for a moment. Deep in the history, the pages before it are read first; on
 * another branch, the server says where that branch ends and it is switched to. From a search, the
 * query's words in it are marked (`marks`, its terms) while the link is open.
 */
export function useLinkedMessage({ chatId, history, loaded, older, reveal }: LinkedMessageProps) {
  const location = useLocation();
  const switchBranch = useSwitchBranch();
  const target = location.hash.startsWith(MESSAGE_HASH) ? decodeURIComponent(location.hash.slice(MESSAGE_HASH.length)) : null;
  const query = (location.state as Partial<SearchLinkState> | null)?.searchQuery;
  const marks = useMemo(() => (target && typeof query === 'string' ? searchQuery(query).terms : null), [target, query]);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [branch, setBranch] = useState<LinkedBranch | null>(null);
  const reached = useRef<string | null>(null);
  const asked = useRef<string | null>(null);
  const switched = useRef<string | null>(null);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const inHistory = !!target && history.some((m) => m.id === target);

  // Not among the messages read: which branch is it on (one small read, once per link)?
  useEffect(() => {
    if (!target || !chatId || !loaded || inHistory || asked.current === target) return;
    asked.current = target;
    fetchMessagePage(chatId, { through: target }, 1).then(
      (page) => setBranch({ target, leaf: page.messages.length ? page.leaf_id : null }),
      () => setBranch({ target, leaf: null }),
    );
  }, [target, chatId, loaded, inHistory]);

  useEffect(() => {
    if (!target || reached.current === target || !chatId || !loaded) return;
    if (!inHistory) {
      if (branch?.target !== target || !branch.leaf) return;
      if (history.at(-1)?.id !== branch.leaf) {
        // On another branch: switched to once (its pages are then read from its end).
        if (switched.current !== target && !switchBranch.isPending) {
          switched.current = target;
          switchBranch.mutate({ chatId, leafId: branch.leaf });
        }
        return;
      }
      // On this branch, further back: the page before the oldest read, until it is there.
      if (older.more && !older.loading) older.load();
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
  }, [target, chatId, loaded, history, inHistory, branch, older, switchBranch, reveal]);

  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return { target, highlighted, marks };
}
