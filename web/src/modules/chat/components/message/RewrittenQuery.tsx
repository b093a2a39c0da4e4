/** What the assistant searched for instead of the user's words, when the flag shows it. */
export function RewrittenQuery({ text, show }: { text: string | null | undefined; show: boolean }) {
  if (!show || !text) return null;
  return <p className="rewritten">Searched for: “{text}”</p>;
}
