import { Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { highlightsIn, searchQuery, type SearchHit, type SearchResults } from '@app/contracts/chat';
import { ownerOf } from '../conversations/conversations.service';
import { ConversationSearchRepository, ownedSearch } from './conversation-search.repository';
import { snippetOf } from './snippet';

/** Message candidates read per result wanted: several may be of one conversation. */
const MESSAGES_PER_RESULT = 3;

/**
 * One search over the caller's conversations, one result per conversation: those whose title
 * matches first (each showing its best matching message when one matches too), then those where
 * only messages match, best first.
 */
@Injectable()
export class ConversationSearchService {
  constructor(private readonly repo: ConversationSearchRepository) {}

  async search(caller: Caller, input: { q: string; limit: number }): Promise<SearchResults> {
    const userId = ownerOf(caller);
    const query = searchQuery(input.q);
    const terms = query.terms;
    const compiled = terms.length ? await this.repo.compile(query) : null;
    if (!compiled) return { q: input.q, results: [] };
    const owned = ownedSearch(compiled, userId);
    const [titles, messages] = await Promise.all([
      this.repo.titles(userId, owned, input.limit),
      this.repo.messages(userId, owned, input.limit * MESSAGES_PER_RESULT),
    ]);
    const best = new Map<string, SearchHit>();
    for (const m of messages) {
      if (best.has(m.chat_id)) continue;
      const { snippet, highlights } = snippetOf(m.content, terms);
      best.set(m.chat_id, {
        chat_id: m.chat_id,
        conversation_title: m.title,
        project_id: m.project_id,
        message_id: m.id,
        sender: m.sender,
        snippet,
        highlights,
        title_highlights: m.title ? highlightsIn(m.title, terms) : [],
        created_at: new Date(m.created_at).toISOString(),
      });
    }
    const results: SearchHit[] = titles.map((t) => {
      const titleHighlights = highlightsIn(t.title, terms);
      const inside = best.get(t.id);
      best.delete(t.id);
      return inside
        ? { ...inside, title_highlights: titleHighlights }
        : {
            chat_id: t.id,
            conversation_title: t.title,
            project_id: t.project_id,
            message_id: null,
            sender: null,
            snippet: t.title,
            highlights: titleHighlights,
            title_highlights: titleHighlights,
            created_at: new Date(t.created_at).toISOString(),
          };
    });
    results.push(...best.values());
    return { q: input.q, results: results.slice(0, input.limit) };
  }
}
