import type { MessagePage } from '@app/contracts/chat';
import type { BranchPlace } from '../components/message/messageProps';
import type { ReplyDraft } from '../state/replyStore';
import { askKey, replyKey, rowKeyOf } from '../state/rowKeys';
import type { DisplayMessage } from './history';

/** One row of the conversation's list: a stored message, the user's being sent, or the reply streaming. */
export type MessageRow =
  | { kind: 'message'; key: string; message: DisplayMessage; branch?: BranchPlace }
  | { kind: 'sending'; key: string; message: DisplayMessage }
  | { kind: 'draft'; key: string };

const byCreated = (a: DisplayMessage, b: DisplayMessage) => a.created_at.localeCompare(b.created_at);

/** A message's versions as the server knows them: its place among them, and where each version's branch leads. */
export type KnownVersions = BranchPlace & { leaves: string[] };

/** The versions the pages read came with, by message. */
export function serverVersions(pages: Pick<MessagePage, 'versions'>[]): Map<string, KnownVersions> {
  const known = new Map<string, KnownVersions>();
  for (const page of pages)
    for (const { message_id, versions } of page.versions) {
      const index = versions.findIndex((v) => v.message_id === message_id);
      if (index >= 0) known.set(message_id, { index, count: versions.length, leaves: versions.map((v) => v.leaf_id) });
    }
  return known;
}

/** Every message's place among its versions (same parent, same side), for those with more than one: one pass over all. */
export function branchPlaces(all: DisplayMessage[]): Map<string, BranchPlace> {
  const groups = new Map<string, DisplayMessage[]>();
  for (const message of all) {
    const group = `${message.previous_message_id ?? ''}|${message.isUser}`;
    const list = groups.get(group);
    if (list) list.push(message);
    else groups.set(group, [message]);
  }
  const places = new Map<string, BranchPlace>();
  for (const siblings of groups.values()) {
    if (siblings.length < 2) continue;
    siblings.sort(byCreated).forEach((message, index) => places.set(message.id, { index, count: siblings.length }));
  }
  return places;
}

/**
 * Where each message is among its versions, as shown: as the server counts them (the pages read, and
 * the reply just stored: replyStore reads its versions before it replaces the draft); for a message
 * it has said nothing of yet, as the messages read have it.
 */
export function placesOf(all: DisplayMessage[], versions: Map<string, KnownVersions>): Map<string, BranchPlace> {
  return new Map([...branchPlaces(all), ...versions]);
}

/** The rows shown: the active branch, then the exchange streaming (its user message and its reply). */
export function messageRows(
  visible: DisplayMessage[],
  places: Map<string, BranchPlace>,
  sending: DisplayMessage | null,
  draft: Pick<ReplyDraft, 'id'> | null,
): MessageRow[] {
  const rows: MessageRow[] = visible.map((message) => ({
    kind: 'message',
    key: rowKeyOf(message.id),
    message,
    branch: places.get(message.id),
  }));
  const draftId = draft?.id ?? 'draft';
  if (sending) rows.push({ kind: 'sending', key: askKey(draftId), message: sending });
  if (draft) rows.push({ kind: 'draft', key: replyKey(draftId) });
  return rows;
}

/**
 * A first guess of a row's height in pixels, before it is measured: a user message is a short
 * bubble; a reply grows with its lines (code and tables are a line a row) and its length.
 */
export function estimateRowHeight(row: MessageRow): number {
  if (row.kind === 'draft') return 120;
  const { text, isUser } = row.message;
  let lines = 0;
  for (const line of text.split('\n')) lines += 1 + Math.floor(line.length / 90);
  return isUser ? 56 + 24 * Math.min(lines, 20) : 48 + 24 * lines;
}
