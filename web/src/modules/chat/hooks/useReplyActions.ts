import type { FileReference } from '@app/contracts/chat';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { showToast } from '../../../ui/toastStore';
import { messageOf } from '../../common/utils/errors';
import { createConversation } from '../api/chatApi';
import { dismissDraft, regenerateReply, sendMessage, type ReplyDraft } from '../state/replyStore';
import type { DisplayMessage } from '../utils/history';
import { addConversation } from './chatQueries';
import { setTemporaryWanted, temporaryStore } from '../../temporary/state/temporaryStore';

type ReplyActionsProps = {
  chatId: string | undefined;
  history: DisplayMessage[];
  draft: ReplyDraft | null;
  /** A reply is about to stream in (the view follows it). */
  onStart: () => void;
};

/** Sending, editing, regenerating and retrying, wired to the reply stream. */
export function useReplyActions({ chatId, history, draft, onStart }: ReplyActionsProps) {
  const client = useQueryClient();
  const navigate = useNavigate();
  // A new chat started from a project (`/chat?project=…`) is created in it.
  const [params] = useSearchParams();
  const projectId = params.get('project');

  /** A message after `previousMessageId` (the end of the active branch by default); a new chat is created first. */
  const send = async (text: string, previousMessageId?: string | null, files: FileReference[] = []) => {
    let id = chatId;
    onStart();
    if (!id) {
      try {
        const created = await createConversation(null, temporaryStore.get().wanted, projectId);
        setTemporaryWanted(false);
        addConversation(client, created);
        id = created.chat_id;
        navigate(`/chat/${id}`, { replace: true });
      } catch (error) {
        showToast(messageOf(error, 'The conversation could not be started.'), 'error');
        return;
      }
    }
    const previous = previousMessageId !== undefined ? previousMessageId : (history.at(-1)?.id ?? null);
    await sendMessage(client, id, text, previous, files);
  };

  /**
   * Answers the user message before this reply again, as a new branch: at once, though that message
   * may be on a page not read yet (the reply is the oldest read); the server sends it.
   */
  const regenerate = (assistant: DisplayMessage) => {
    const userMessageId = assistant.previous_message_id;
    if (!chatId || !userMessageId) return;
    onStart();
    void regenerateReply(client, chatId, userMessageId);
  };

  /** After a failed reply: asks again for the stored user message, or sends the text again. */
  const retry = () => {
    if (!draft || !chatId) return;
    const stored = draft.userMessage?.message_id ?? draft.regenerateOf;
    if (stored) void regenerateReply(client, chatId, stored);
    else if (draft.pendingUserText) {
      const text = draft.pendingUserText;
      dismissDraft();
      void send(text, draft.previousMessageId, draft.pendingFiles);
    }
  };

  return { send, regenerate, retry };
}
