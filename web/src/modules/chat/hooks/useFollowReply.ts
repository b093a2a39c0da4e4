import { useCallback, useLayoutEffect, useRef, type DependencyList, type UIEvent } from 'react';

/** How close to the bottom (px) still counts as reading the end. */
const NEAR_BOTTOM = 80;

/**
 * Keeps a scroll area at its bottom while the reader is there, each time `changes` change (a
 * reply streaming in); scrolling up stops that until the reader comes back down or a reply starts.
 */
export function useFollowReply(changes: DependencyList) {
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, changes); // the caller says what moves the bottom
  const follow = useCallback(() => {
    following.current = true;
  }, []);
  const stop = useCallback(() => {
    following.current = false;
  }, []);
  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const element = event.currentTarget;
    following.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM;
  }, []);
  return { scroller, follow, stop, onScroll };
}
