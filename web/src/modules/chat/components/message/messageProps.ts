import type { FeedbackValue } from '../../hooks/useFeedbackPrompt';
import type { DisplayMessage } from '../../utils/history';

/**
 * What a reader can do with a stored message: one set of functions for the whole list, taking the
 * message, so that a message's props stay the same from one render to the next (it is memoised).
 */
export type MessageActions = {
  edit: (message: DisplayMessage, text: string) => void;
  regenerate: (message: DisplayMessage) => void;
  feedback: (message: DisplayMessage, feedback: FeedbackValue, verbose?: string | null) => void;
  switchBranch: (message: DisplayMessage, index: number) => void;
};

/** Where a message is among its versions (shown when it has more than one). */
export type BranchPlace = { index: number; count: number };

/** Where a message is in the page (the memories page and the search link to it). */
export const messageElementId = (id: string) => `message-${id}`;
