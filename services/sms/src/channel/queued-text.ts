import { randomUUID } from 'node:crypto';
import type { QueuedText } from './store/channel-store';
import { countSegments } from './segments';

/** A text to queue: a new id, and the segments and encoding it goes out in, counted from its body. */
export function queuedText(text: Omit<QueuedText, 'id' | 'segments' | 'encoding'>): QueuedText {
  const count = countSegments(text.body);
  return { id: randomUUID(), ...text, segments: count.segments, encoding: count.encoding };
}
