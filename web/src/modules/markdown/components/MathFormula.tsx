import { memo, useEffect, useState } from 'react';

type MathFormulaProps = { tex: string; display: boolean; block?: boolean };

type Typesetter = typeof import('../utils/katex');
let loading: Promise<Typesetter> | null = null;
const loadTypesetter = () => (loading ??= import('../utils/katex'));

/**
 * A formula typeset by KaTeX, which loads with the first formula shown (as the code highlighter
 * does with the first code block). Until then its source shows, in the same place.
 * `block`: a formula on its own lines (a `div`); otherwise it sits in its paragraph (a `span`).
 */
export const MathFormula = memo(function MathFormula({ tex, display, block }: MathFormulaProps) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    loadTypesetter()
      .then(({ typeset }) => {
        if (!cancelled) setHtml(typeset(tex, display));
      })
      .catch((error) => console.error('The math typesetter failed to load', error));
    return () => {
      cancelled = true;
    };
  }, [tex, display]);
  const Tag = block ? 'div' : 'span';
  const className = `math ${display ? 'math--display' : 'math--inline'}`;
  if (html === null) {
    return (
      <Tag className={className}>
        <code className="math__source">{tex}</code>
      </Tag>
    );
  }
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
});
