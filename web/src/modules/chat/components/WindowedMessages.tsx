import type { ReactNode } from 'react';
import type { MessageWindow } from '../hooks/useMessageWindow';
import type { MessageRow } from '../utils/messageRows';

type WindowedMessagesProps = {
  rows: MessageRow[];
  /** Which rows are near the view, and where each goes (hooks/useMessageWindow.ts). */
  virtualizer: MessageWindow;
  /** What a row shows (its message). */
  renderRow: (row: MessageRow) => ReactNode;
};

/**
 * The rows of a list of messages near the view, each placed at its offset and measured as it
 * renders; the list is as tall as all its rows. Used by the conversation (ChatMessages) and the
 * shared conversation (SharedMessages).
 */
export function WindowedMessages({ rows, virtualizer, renderRow }: WindowedMessagesProps) {
  return (
    <div className="messages messages--windowed" aria-live="off" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => (
        <div key={item.key} className="messages__row" data-index={item.index} ref={virtualizer.measureElement} style={{ top: item.start }}>
          {renderRow(rows[item.index])}
        </div>
      ))}
    </div>
  );
}
