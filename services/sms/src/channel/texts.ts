/** What the assistant texts on its own (keywords, notices, group confirmations). Short: one GSM-7 segment where possible. */
export const CHANNEL_TEXT = {
  stopped: (name: string) => `${name}: you are unsubscribed and will get no more messages from us. Text START to subscribe again.`,
  started: (name: string) => `${name}: you are subscribed again. Text HELP for help, STOP to stop.`,
  help: (name: string, allowance: number) =>
    `${name}: text any question and the assistant answers (up to ${allowance} texts a month). Msg & data rates may apply. Text STOP to stop, START to resume.`,
  usage: (name: string, used: number, allowance: number) => `${name}: you have used ${used} of your ${allowance} texts this month.`,
  limit: (name: string, allowance: number) =>
    `${name}: you have reached your ${allowance} texts for this month. Replies resume on the 1st (UTC).`,
  credit: (name: string, left: number) => `${name}: your text credit is low: ${left} ${left === 1 ? 'text' : 'texts'} left this month.`,
  failed: (name: string) => `${name}: sorry, I could not answer just now. Please try again in a moment.`,
  /** An invitation: who invites, to which group (both sanitised, see safeLabel), and how to answer. */
  joinAsk: (name: string, inviter: string, group: string) =>
    `${name}: ${inviter} invited you to the group text "${group}". Reply YES to join. Ignore this text to stay out.`,
  /** Two or more invitations wait: a bare YES joins none of them; each has its own code. */
  joinList: (name: string, pending: { code: string; group: string; inviter: string }[]) =>
    `${name}: you have ${pending.length} group invitations. ${pending
      .map((p) => `Reply JOIN ${p.code} for "${p.group}" (from ${p.inviter})`)
      .join(', ')}. Ignore this text to join none.`,
  joinUnknownCode: (name: string) => `${name}: that code matches none of your group invitations. Ask for a new invitation.`,
  /** A member is in as many groups as the service has numbers: another would share a number with one of theirs. */
  joinFull: (name: string, group: string, numbers: number) =>
    `${name}: you could not join "${group}": your number is already in ${numbers} group${numbers === 1 ? '' : 's'} here, the most this service can carry. Leave one first.`,
  joined: (name: string, group: string) => `${name}: you joined "${group}". Texts to this number go to everyone in it. Text STOP to stop.`,
  /** A membership moved to a free number (it shared one with another of the member's groups). */
  moved: (name: string, group: string) =>
    `${name}: texts for the group "${group}" now come from this number. Text this number to write to it.`,
  pictureUnreadable: (name: string) => `${name}: I could not read the picture you sent (too large or not an image). Try a smaller one.`,
  /** The end of a reply cut to fit SMS_MAX_SEGMENTS: where the rest is. */
  more: '(more in the app)',
} as const;

/**
 * A name someone else chose, safe to put in a text to a stranger's phone: letters, digits, spaces
 * and plain punctuation only (no link, no number to call, nothing that switches the text to
 * UCS-2), at most `max` characters. An attacker cannot make the product text "call +1 555..." or a
 * link to anyone.
 */
export function safeLabel(text: string, max: number, fallback: string): string {
  const cleaned = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\b(?:https?:\/\/|www\.)\S*/gi, ' ')
    .replace(/\S+\.(?:[a-z]{2,})(?:\/\S*)?/gi, (word) => (/^[\d.]+$/.test(word) ? word : ' '))
    .replace(/[+\d][\d\s().-]{4,}\d/g, ' ')
    .replace(/[^A-Za-z0-9 '&,.!?*+-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return cleaned || fallback;
}
