import { memo, useEffect, useState } from 'react';
import { CopyButton } from '../../../ui/CopyButton';

type CodeBlockProps = { code: string; language?: string; streaming?: boolean };

type Highlighter = typeof import('../utils/highlight');
let loading: Promise<Highlighter> | null = null;
const loadHighlighter = () => (loading ??= import('../utils/highlight'));

/** A code block: language label, copy button, highlighting loaded on demand (not while it streams). */
export const CodeBlock = memo(function CodeBlock({ code, language, streaming }: CodeBlockProps) {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    if (streaming) return;
    let cancelled = false;
    loadHighlighter()
      .then(({ highlight }) => {
        if (!cancelled) setHtml(highlight(code, language));
      })
      .catch((error) => console.error('Highlighter failed to load', error));
    return () => {
      cancelled = true;
    };
  }, [code, language, streaming]);
  const label = language?.trim() || 'code';
  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span className="code-block__lang">{label}</span>
        <CopyButton text={code} label={`Copy ${label}`} />
      </div>
      <pre tabIndex={0} aria-label={`${label} code`}>
        {html !== null && !streaming ? (
          <code className={`hljs language-${label}`} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <code className={`hljs language-${label}`}>{code}</code>
        )}
      </pre>
    </div>
  );
});
