import { describe, expect, it } from 'vitest';
import { memoryItem } from '../../../test/builders';
import { groupBySource, sourceMessagePath } from './groupMemories';

describe('memories grouped per source message (section 3)', () => {
  it('keeps the list’s order, one group per message, those without a message last', () => {
    const groups = groupBySource([
      memoryItem('a', { source_message_id: 'm2', updated_at: '2025-09-22T00:00:00Z' }),
      memoryItem('b', { source_message_id: null, source_chat_id: null }),
      memoryItem('c', { source_message_id: 'm1' }),
      memoryItem('d', { source_message_id: 'm2', updated_at: '2025-09-23T00:00:00Z' }),
    ]);
    expect(groups.map((g) => [g.messageId, g.memories.map((m) => m.user_memory_id), g.updatedAt])).toEqual([
      ['m2', ['a', 'd'], '2025-09-23T00:00:00Z'],
      ['m1', ['c'], '2025-09-20T10:00:00Z'],
      [null, ['b'], '2025-09-20T10:00:00Z'],
    ]);
  });

  it('links to the message in its conversation', () => {
    expect(sourceMessagePath('c1', 'm1')).toBe('/chat/c1#message-m1');
    expect(sourceMessagePath('c1', null)).toBe('/chat/c1');
  });
});
