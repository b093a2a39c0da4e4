import type { Conversation } from '@app/contracts/chat';
import { useState } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { Field } from '../../../ui/Field';
import { Spinner } from '../../../ui/Spinner';
import { showToast } from '../../../ui/toastStore';
import { closeSidebarOnNarrow } from '../../layout/state/sidebarStore';
import { useUi } from '../../layout/state/uiStore';
import { useConversations, useDeleteConversation, useRenameConversation } from '../hooks/chatQueries';
import { UNTITLED } from '../utils/titles';
import { IconButton } from '../../../ui/IconButton';

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

/** The user's conversations, newest first, grouped by when they were last active; rename and delete. */
export function ConversationList() {
  const { data, isLoading, isError } = useConversations();
  const currentChatId = useUi((s) => s.currentChatId);
  const navigate = useNavigate();
  const remove = useDeleteConversation();
  const rename = useRenameConversation();
  const [renaming, setRenaming] = useState<Conversation | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);
  const [title, setTitle] = useState('');

  if (isLoading)
    return (
      <div className="conversation-list conversation-list--loading">
        <Spinner label="Loading conversations" />
      </div>
    );
  // A temporary chat is never in the sidebar.
  const conversations = (data ?? []).filter((c) => !c.temporary);
  const groups = new Map<string, Conversation[]>();
  for (const conversation of conversations) {
    const group = groupOf(conversation);
    groups.set(group, [...(groups.get(group) ?? []), conversation]);
  }

  return (
    <div className="conversation-list">
      {isError && conversations.length === 0 && <p className="muted small">The conversations could not be loaded.</p>}
      {!isError && conversations.length === 0 && <p className="muted small conversation-list__empty">No conversations yet.</p>}
      {[...groups.entries()].map(([group, items]) => (
        <section key={group} aria-label={group}>
          <h2 className="conversation-list__group">{group}</h2>
          <ul>
            {items.map((conversation) => {
              const label = conversation.conversation_title || UNTITLED;
              return (
                <li key={conversation.chat_id} className="conversation" data-active={conversation.chat_id === currentChatId}>
                  <NavLink to={`/chat/${conversation.chat_id}`} className="conversation__link" onClick={closeSidebarOnNarrow} title={label}>
                    {label}
                  </NavLink>
                  <span className="conversation__actions">
                    <IconButton
                      small
                      icon="edit"
                      iconSize={15}
                      label={`Rename ${label}`}
                      onClick={() => {
                        setTitle(conversation.conversation_title ?? '');
                        setRenaming(conversation);
                      }}
                    />
                    <IconButton small icon="trash" iconSize={15} label={`Delete ${label}`} onClick={() => setDeleting(conversation)} />
                  </span>
                </li>
              );
            })}
          </ul>
        </section>
      ))}

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
