import type { UserMemory } from '@app/contracts/memory';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { useAuthStatus } from '../../auth/state/authStore';
import { fetchMessages } from '../../chat/api/chatApi';
import { useConversations } from '../../chat/hooks/chatQueries';
import { groupBySource, sourceMessagePath } from '../utils/groupMemories';
import { MemoryItem } from './MemoryItem';

type MemoryGroupsProps = { memories: UserMemory[]; busy: string[] };

/** The messages read to quote where memories came from: at most this many conversations (chat_ids takes 2,000 characters). */
const MAX_SOURCE_CHATS = 50;
const EXCERPT = 140;

const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' });
const dayOf = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
};
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
};

/** The memories grouped per message they came from: the message quoted, its conversation, and a link to it. */
export function MemoryGroups({ memories, busy }: MemoryGroupsProps) {
  const groups = useMemo(() => groupBySource(memories), [memories]);
  const status = useAuthStatus();
  const conversations = useConversations();
  const chatIds = useMemo(
    () => [...new Set(groups.map((g) => g.chatId).filter((id): id is string => !!id))].sort().slice(0, MAX_SOURCE_CHATS),
    [groups],
  );
  const sources = useQuery({
    queryKey: ['memory-sources', ...chatIds],
    queryFn: () => fetchMessages(chatIds),
    enabled: chatIds.length > 0 && (status === 'anonymous' || status === 'registered'),
    staleTime: 60_000,
  });
  const said = useMemo(() => new Map((sources.data ?? []).map((m) => [m.message_id, m.content])), [sources.data]);
  const titleOf = (chatId: string | null) => conversations.data?.find((c) => c.chat_id === chatId)?.conversation_title ?? null;
  return (
    <div className="memory-groups">
      {groups.map((group) => {
        const headingId = `memory-group-${group.key}`;
        const title = titleOf(group.chatId);
        const quote = group.messageId ? said.get(group.messageId) : undefined;
        return (
          <section key={group.key} className="memory-group" aria-labelledby={headingId}>
            <div className="memory-group__head">
              <div className="memory-group__source">
                <h2 id={headingId} className="memory-group__title">
                  {quote ? `You said: “${excerpt(quote)}”` : group.messageId ? 'From something you said' : 'Not from a message'}
                </h2>
                <p className="memory-group__where">
                  {title ? `In “${title}” · ` : ''}
                  {dayOf(group.updatedAt)}
                </p>
              </div>
              {group.chatId && (
                <Link className="memory-group__link" to={sourceMessagePath(group.chatId, group.messageId)} aria-describedby={headingId}>
                  Go to the message <Icon name="chevron-right" size={14} />
                </Link>
              )}
            </div>
            <ul className="memory-list">
              {group.memories.map((memory) => (
                <MemoryItem key={memory.user_memory_id} memory={memory} busy={busy.includes(memory.user_memory_id)} />
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
