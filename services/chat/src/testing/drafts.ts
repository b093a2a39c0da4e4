import type { FileReference } from '@app/contracts/chat';
import type { ConversationEntity } from '../conversations/conversation.entity';
import type { ReplyDrafts } from '../replies/reply-drafts';

/** A new message in `conversation` and its reply's draft (ReplyDrafts.withMessage), for a test that expects it stored. */
export async function drafted(
  drafts: Pick<ReplyDrafts, 'withMessage'>,
  conversation: Pick<ConversationEntity, 'id' | 'userId'>,
  message: { content: string; previousId?: string | null; files?: FileReference[] },
) {
  const draft = await drafts.withMessage(conversation.userId, conversation.id, { files: [], ...message });
  if (draft.missing) throw new Error(`The ${draft.missing} was not found`);
  const { missing: _stored, ...stored } = draft;
  return stored;
}
