import { memo, useEffect, useState } from 'react';
import { CopyButton } from '../../../ui/CopyButton';
import { highlightedBefore, highlightSoon } from '../utils/highlightQueue';

type CodeBlockProps = { code: string; language?: string; streaming?: boolean };

/**
 * A code block: language label, copy button, highlighting loaded on demand (not while it streams),
 * a few blocks per task (utils/highlightQueue.ts), at once when this code was highlighted before.
 */
export const CodeBlock = memo(function CodeBlock({ code, language, streaming }: CodeBlockProps) {
  // The highlighted HTML is read from the queue's results; a highlight landing renders the block again.
  const [, landed] = useState(0);
  useEffect(() => {
    if (streaming || highlightedBefore(code, language) !== undefined) return;
    return highlightSoon(code, language, () => landed((n) => n + 1));
  }, [code, language, streaming]);
  const html = streaming ? null : (highlightedBefore(code, language) ?? null);
  const label = language?.trim() || 'code';
  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span className="code-block__lang">{label}</span>
        <CopyButton text={code} label={`Copy ${label}`} />
      </div>
      <pre tabIndex={0} aria-label={`${label} code`}>
        {html !== null ? (
          <code className={`hljs language-${label}`} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <code className={`hljs language-${label}`}>{code}</code>
        )}
      </pre>
    </div>
  );
});
