import type { Conversation } from '@app/contracts/chat';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import { showToast } from '../../../ui/toastStore';
import { useUi } from '../../layout/state/uiStore';
import { MoveToProjectDialog } from '../../projects/components/MoveToProjectDialog';
import { ProjectsSection } from '../../projects/components/ProjectsSection';
import { useChatDrop } from '../../projects/hooks/useChatDrop';
import { useMoveConversation } from '../../projects/hooks/projectQueries';
import { useConversations, useDeleteConversation, useRenameConversation } from '../hooks/chatQueries';
import { UNTITLED } from '../utils/titles';
import { ConversationItem } from './ConversationItem';

function groupOf(conversation: Conversation, now = Date.now()): string {
  const when = Date.parse(conversation.last_message_timestamp ?? conversation.created_at ?? '');
  if (Number.isNaN(when)) return 'Older';
  const days = (now - when) / 86_400_000;
  const today = new Date(now).toDateString() === new Date(when).toDateString();
  if (today) return 'Today';
  if (days < 7) return 'Previous 7 days';
  if (days < 30) return 'Previous 30 days';
  return 'Older';
}

/**
 * The user's projects (each with its conversations), then the conversations in none, newest first,
 * grouped by when they were last active; move, rename and delete. A conversation dragged out of a
 * project onto this list leaves the project.
 */
export function ConversationList() {
  const { data, isLoading, isError } = useConversations();
  const currentChatId = useUi((s) => s.currentChatId);
  const navigate = useNavigate();
  const remove = useDeleteConversation();
  const rename = useRenameConversation();
  const [renaming, setRenaming] = useState<Conversation | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const [moving, setMoving] = useState<Conversation | null>(null);
  const [title, setTitle] = useState('');
  const move = useMoveConversation();
  const dropOut = useChatDrop((chatId) => {
    const conversation = data?.find((c) => c.chat_id === chatId);
    if (!conversation?.project_id) return;
    move.mutate({ chatId, projectId: null }, { onError: () => showToast('The conversation could not be moved.', 'error') });
  });

  if (isLoading)
    return (
      <div className="conversation-list conversation-list--loading">
        <Spinner label="Loading conversations" />
      </div>
    );
  // A temporary chat is never in the sidebar; a project's conversations are listed under it.
  const listed = (data ?? []).filter((c) => !c.temporary);
  const conversations = listed.filter((c) => !c.project_id);
  const groups = new Map<string, Conversation[]>();
  for (const conversation of conversations) {
    const group = groupOf(conversation);
    groups.set(group, [...(groups.get(group) ?? []), conversation]);
  }

  const item = (conversation: Conversation) => (
    <ConversationItem
      key={conversation.chat_id}
      conversation={conversation}
      active={conversation.chat_id === currentChatId}
      onMove={setMoving}
      onDelete={setDeleting}
      onRename={(chosen) => {
        setTitle(chosen.conversation_title ?? '');
        setRenaming(chosen);
      }}
    />
  );

  return (
    <div className="conversation-list">
      <ProjectsSection conversations={listed} renderConversation={item} />
      <div className="conversation-list__free" data-drop-over={dropOut.over} {...dropOut.props}>
        {isError && conversations.length === 0 && <p className="muted small">The conversations could not be loaded.</p>}
        {!isError && listed.length === 0 && <p className="muted small conversation-list__empty">No conversations yet.</p>}
        {[...groups.entries()].map(([group, items]) => (
          <section key={group} aria-label={group}>
            <h2 className="conversation-list__group">{group}</h2>
            <ul>{items.map(item)}</ul>
          </section>
        ))}
        {dropOut.over && <p className="conversation-list__drop-hint">Drop to take it out of its project</p>}
      </div>

      <MoveToProjectDialog conversation={moving} onClose={() => setMoving(null)} />

      <Dialog open={!!renaming} title="Rename conversation" onClose={() => setRenaming(null)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            const chatId = renaming?.chat_id;
            const next = title.trim();
            if (!chatId || !next) return;
            rename.mutate({ chatId, title: next }, { onError: () => showToast('The conversation could not be renamed.', 'error') });
            setRenaming(null);
          }}
        >
          <Field label="Title">
            {(control) => (
              <input {...control} value={title} onChange={(event) => setTitle(event.target.value)} maxLength={200} required autoFocus />
            )}
          </Field>
          <div className="form__actions">
            <button type="button" className="button button--secondary" onClick={() => setRenaming(null)}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={!title.trim()}>
              Rename
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog open={!!deleting} title="Delete conversation?" onClose={() => setDeleting(null)}>
        <p>“{deleting?.conversation_title || UNTITLED}” and all its messages will be deleted. This cannot be undone.</p>
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={() => setDeleting(null)}>
            Cancel
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              const chatId = deleting?.chat_id;
              setDeleting(null);
              if (!chatId) return;
              remove.mutate(chatId, {
                onSuccess: () => {
                  if (chatId === currentChatId) navigate('/chat');
                },
                onError: () => showToast('The conversation could not be deleted.', 'error'),
              });
            }}
          >
            Delete
          </button>
        </div>
      </Dialog>
    </div>
  );
}
