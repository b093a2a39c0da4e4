import { useModelPhase, type ModelPhase } from '../../hooks/useModelPhase';
import type { ReplyDraft } from '../../state/replyStore';
import { PhaseLine } from './PhaseLine';

const ORDER: ModelPhase[] = ['idle', 'personalizing', 'searching', 'thinking'];

/** What a streaming reply is doing before its text arrives (or a tool running, before or after some text). */
export function ReplyPhase({ draft }: { draft: ReplyDraft }) {
  const waiting = draft.streaming && !draft.text;
  const timed = useModelPhase(waiting);
  // The server's phase wins when it is further along than the timer.
  const server = draft.serverPhase === 'tool' ? 'thinking' : (draft.serverPhase ?? 'idle');
  const phase = waiting ? (ORDER.indexOf(server) > ORDER.indexOf(timed) ? server : timed) : 'idle';
  const tool = draft.streaming && draft.serverPhase === 'tool' ? draft.toolLabel : null;
  return tool ? <PhaseLine phase="thinking" label={tool} /> : <PhaseLine phase={phase} />;
}
