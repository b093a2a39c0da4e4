/** What the assistant texts on its own (keywords, notices, group confirmations). Short: one GSM-7 segment where possible. */
export const CHANNEL_TEXT = {
  stopped: (name: string) => `${name}: you are unsubscribed and will get no more messages from us. Text START to subscribe again.`,
  started: (name: string) => `${name}: you are subscribed again. Text HELP for help, STOP to stop.`,
  help: (name: string, allowance: number) =>
    `${name}: text any question and the assistant answers (up to ${allowance} replies a month). Msg & data rates may apply. Text STOP to stop, START to resume.`,
  usage: (name: string, used: number, allowance: number) => `${name}: you have used ${used} of your ${allowance} texts this month.`,
  limit: (name: string, allowance: number) =>
    `${name}: you have reached your ${allowance} texts for this month. Replies resume on the 1st (UTC).`,
  credit: (name: string, left: number) => `${name}: your text credit is low: ${left} ${left === 1 ? 'reply' : 'replies'} left this month.`,
  failed: (name: string) => `${name}: sorry, I could not answer just now. Please try again in a moment.`,
  joinAsk: (name: string, group: string) => `${name}: reply YES to join the group "${group}". Ignore this text to stay out.`,
  joined: (name: string, group: string) => `${name}: you joined "${group}". Texts to this number go to everyone in it. Text STOP to stop.`,
} as const;
