import { useEffectiveFlags } from '../../../insider/hooks/insiderQueries';

/** What the assistant searched for instead of the user's words, when the flag shows it. */
export function RewrittenQuery({ text }: { text: string | null | undefined }) {
  const show = useEffectiveFlags().show_rewritten_user_message;
  if (!show || !text) return null;
  return <p className="rewritten">Searched for: “{text}”</p>;
}
