import { useEffect, useState } from 'react';
import type { ThreadItem } from './useDevPhone';

/** After this long without a reply, the thread says what may be wrong. */
const SLOW_REPLY_MS = 20_000;

/** Whether the reply to the last text sent is overdue (checked every second while one is awaited). */
export function useSlowReply(thread: ThreadItem[], waiting: boolean): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [waiting]);
  const lastSent = [...thread].reverse().find((item) => item.direction === 'out');
  return waiting && lastSent !== undefined && now - Date.parse(lastSent.at) > SLOW_REPLY_MS;
}
