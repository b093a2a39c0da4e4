/** What a conversation without a title is called. */
export const UNTITLED = 'New conversation';
