type ReasoningProps = { text: string; open?: boolean };

/** The model's reasoning summary, folded (open while a reply thinks before its first words). */
export function Reasoning({ text, open }: ReasoningProps) {
  if (!text.trim()) return null;
  return (
    <details className="reasoning" open={open}>
      <summary>Reasoning</summary>
      <div className="reasoning__text">{text}</div>
    </details>
  );
}
