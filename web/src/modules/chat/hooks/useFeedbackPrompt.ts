import { useState } from 'react';

export type FeedbackValue = 'like' | 'dislike' | null;
type Send = (feedback: FeedbackValue, verbose?: string | null) => void;

/**
 * Like and dislike on a reply: pressing the current one takes it back; a dislike asks why first
 * when the flag says so (the reason is optional).
 */
export function useFeedbackPrompt(current: FeedbackValue, previousReason: string | null, verbose: boolean, send: Send) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const press = (kind: 'like' | 'dislike') => {
    if (current === kind) return send(null);
    if (kind === 'dislike' && verbose) {
      setReason(previousReason ?? '');
      setAsking(true);
      return;
    }
    send(kind);
  };
  const submit = () => {
    setAsking(false);
    send('dislike', reason.trim() || null);
  };
  return { press, asking, reason, setReason, submit, cancel: () => setAsking(false) };
}
