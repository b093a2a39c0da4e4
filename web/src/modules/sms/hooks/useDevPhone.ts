import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { messageOf } from '../../common/utils/errors';
import { readStorage, writeStorage } from '../../common/utils/storage';
import { fetchDevTexts, sendDevText, type DevSms } from '../api/smsApi';
import { randomDevNumber } from '../utils/phone';

const NUMBER_KEY = 'devPhoneNumber';
const sentKey = (number: string) => `devPhoneSent:${number}`;

/** How often the inbox is read while a reply is awaited, and otherwise. */
export const POLL_WAITING_MS = 1_000;
export const POLL_IDLE_MS = 10_000;
/** A reply not there after this long is no longer awaited (the fast polling stops). */
export const WAIT_LIMIT_MS = 120_000;

/** One bubble of the thread: a text this phone sent, or one it received. */
export type ThreadItem = { id: string; direction: 'out' | 'in'; body: string; at: string; peer: string | null; purpose?: string };
type Sent = { id: string; body: string; at: string; to: string | null };

function readSent(number: string): Sent[] {
  try {
    const parsed: unknown = JSON.parse(readStorage(sentKey(number), 'session') ?? '[]');
    return Array.isArray(parsed) ? (parsed as Sent[]) : [];
  } catch {
    return [];
  }
}

/** The number this tab plays: kept for the session, a random fictional number (+1 {area} 555 01XX) at first. */
export function initialDevNumber(): string {
  const stored = readStorage(NUMBER_KEY, 'session');
  if (stored) return stored;
  const number = randomDevNumber();
  writeStorage(NUMBER_KEY, number, 'session');
  return number;
}

/** The thread, oldest first: the texts sent from this tab and those the inbox holds for the number. */
export function threadOf(sent: Sent[], received: DevSms[]): ThreadItem[] {
  const items: ThreadItem[] = [
    ...sent.map((s) => ({ id: `out-${s.id}`, direction: 'out' as const, body: s.body, at: s.at, peer: s.to })),
    ...received.map((m) => ({
      id: `in-${m.message_id}`,
      direction: 'in' as const,
      body: m.body,
      at: m.created_at,
      peer: null,
      purpose: m.purpose,
    })),
  ];
  return items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.direction === b.direction ? 0 : a.direction === 'out' ? -1 : 1));
}

/** Whether the last text sent still awaits an answer (nothing received since, and not too long ago). */
export function awaitingReply(sent: Sent[], received: DevSms[], now: number = Date.now()): boolean {
  const last = sent[sent.length - 1];
  if (!last) return false;
  const at = Date.parse(last.at);
  if (now - at > WAIT_LIMIT_MS) return false;
  return !received.some((m) => Date.parse(m.created_at) >= at - 1_000);
}

/**
 * The development phone: plays a number, sends its texts through the same inbound path as Twilio,
 * and reads what was sent back to it from the development inbox (fast while a reply is awaited).
 */
export function useDevPhone(enabled: boolean) {
  const [number, setNumberState] = useState(initialDevNumber);
  const [sent, setSent] = useState<Sent[]>(() => readSent(number));
  const inbox = useQuery({
    queryKey: ['sms', 'dev-inbox', number],
    queryFn: () => fetchDevTexts(number),
    enabled,
    retry: false,
    refetchInterval: (query) => (awaitingReply(sent, query.state.data?.messages ?? []) ? POLL_WAITING_MS : POLL_IDLE_MS),
  });
  const received = useMemo(() => inbox.data?.messages ?? [], [inbox.data]);
  const sending = useMutation({
    mutationFn: ({ body, to }: { body: string; to: string | null }) => sendDevText({ from: number, body, ...(to ? { to } : {}) }),
    onSuccess: ({ message_sid }, { body, to }) => {
      const next = [...readSent(number), { id: message_sid, body, to, at: new Date().toISOString() }];
      writeStorage(sentKey(number), JSON.stringify(next), 'session');
      setSent(next);
      void inbox.refetch();
    },
  });
  return {
    number,
    /** Plays another number (its own thread). */
    setNumber: (next: string) => {
      writeStorage(NUMBER_KEY, next, 'session');
      setNumberState(next);
      setSent(readSent(next));
      sending.reset();
    },
    thread: useMemo(() => threadOf(sent, received), [sent, received]),
    waiting: awaitingReply(sent, received),
    /** The inbox answered that it is closed (no development phone on this server). */
    closed: inbox.data?.enabled === false,
    loadError: inbox.isError ? messageOf(inbox.error) : null,
    send: sending.mutate,
    sending: sending.isPending,
    sendError: sending.isError ? messageOf(sending.error) : null,
  };
}
