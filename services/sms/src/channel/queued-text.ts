import { randomUUID } from 'node:crypto';
import { countSegments, toGsm7 } from './segments';
import type { QueuedText } from './store/channel-unit-of-work';

/**
 * A text to queue: a new id, its body with its typography in GSM-7 (toGsm7: a curly quote never makes
 * a text UCS-2), and the segments and encoding it goes out in, counted from that body.
 */
export function queuedText(text: Omit<QueuedText, 'id' | 'segments' | 'encoding'>): QueuedText {
  const body = toGsm7(text.body);
  const count = countSegments(body);
  return { id: randomUUID(), ...text, body, segments: count.segments, encoding: count.encoding };
}
