import type { FeedbackValue } from '../../hooks/useFeedbackPrompt';
import type { SearchTerm } from '@app/contracts/chat/search-terms';
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

/** What every message gets from its list, the user's or the assistant's. */
export type MessagePlaceProps = {
  branch?: BranchPlace;
  busy: boolean;
  /** None on a read-only page, nor for the message being sent. */
  actions?: MessageActions;
  /** On a shared page: attachments are read through the share. */
  shareId?: string;
  /** Scrolled to and marked for a moment (a link from the memories page or the search). */
  highlighted?: boolean;
  /** The message a link leads to: it takes the focus. */
  linked?: boolean;
  /** Opened from a search: the words of the query, marked in the text. */
  marks?: SearchTerm[] | null;
};

/** Where a message is in the page (the memories page and the search link to it). */
export const messageElementId = (id: string) => `message-${id}`;
