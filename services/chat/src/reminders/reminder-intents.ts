import * as chrono from 'chrono-node';
import type { OfflineIntent } from '../llm/offline-intents';

/** What the reminder tools answered, as the offline model reads it. */
type Shown = { text?: string; due?: string };
const ZONE = /\b(?:my )?time ?zone is ([A-Za-z_]+(?:\/[A-Za-z_+-]+){1,2}|UTC)\b/i;

/**
 * "Remind me tomorrow at 9 to call the dentist", "remind me to stretch in 10 minutes": the time
 * phrase is the one chrono-node finds in the sentence, the rest (without "remind me" and "to") is
 * what to be reminded of. The tool reads the time phrase itself, in the user's time zone.
 */
export const SET_REMINDER: OfflineIntent = {
  tool: 'set_reminder',
  match: (message, now) => {
    const sentence = message.trim().replace(/[.!]+$/, '');
    const start = /\bremind me\b/i.exec(sentence);
    if (!start) return null;
    const rest = sentence.slice(start.index + start[0].length);
    const found = chrono.parse(rest, { instant: now, timezone: 0 }, { forwardDate: true })[0];
    if (!found) return null;
    const when = found.text.trim();
    const text = (rest.slice(0, found.index) + rest.slice(found.index + found.text.length))
      .replace(/^\s*(?:to|that|about)\s+/i, '')
      .replace(/\s+(?:to|that|about)\s*$/i, '')
      .replace(/^\s*(?:to|that|about)\s+/i, '')
      .replace(/\s{2,}/g, ' ')
      .trim();
    return text ? { text, when } : null;
  },
  answer: (output) => {
    const set = output as Shown;
    return `Done: I'll remind you on ${set.due} to ${set.text}. You'll get it by text (when your number is set up) and here in the portal.`;
  },
  failed: (error) =>
    /time zone is not known/.test(error)
      ? 'Which time zone are you in? Tell me like this: "my time zone is Europe/London". Then ask me for the reminder again.'
      : null,
};

export const LIST_REMINDERS: OfflineIntent = {
  tool: 'list_reminders',
  match: (message) => (/\b(?:list|show|what are|which are)\b.*\breminders\b|^\s*(?:my )?reminders\??\s*$/i.test(message) ? {} : null),
  answer: (output) => {
    const reminders = ((output as { reminders?: Shown[] }).reminders ?? []).map((r) => `- ${r.due}: ${r.text}`);
    return reminders.length ? `Your reminders:\n${reminders.join('\n')}` : 'You have no reminders waiting.';
  },
};

export const CANCEL_REMINDER: OfflineIntent = {
  tool: 'cancel_reminder',
  match: (message) => {
    const found = /\b(?:cancel|delete|remove)\s+(?:my|the)\s+(.+?)\s+reminder\b/i.exec(message);
    return found ? { matching: found[1] } : null;
  },
  answer: (output) => {
    const cancelled = output as Shown;
    return `Cancelled your reminder to ${cancelled.text} (${cancelled.due}).`;
  },
};

export const SET_TIME_ZONE: OfflineIntent = {
  tool: 'set_time_zone',
  match: (message) => {
    const found = ZONE.exec(message);
    return found ? { time_zone: found[1] } : null;
  },
  answer: (output) =>
    `Noted: your time zone is ${(output as { time_zone?: string }).time_zone}. Reminders at a clock time are placed in it; ask me again for the one you wanted.`,
};

export const REMINDER_INTENTS: OfflineIntent[] = [SET_TIME_ZONE, CANCEL_REMINDER, LIST_REMINDERS, SET_REMINDER];
