import { useEffect, useState } from 'react';
import { copyRich } from './clipboard';
import { Icon } from './Icon';

type CopyButtonProps = { text: string; html?: () => string | undefined; label?: string; className?: string };

export function CopyButton({ text, html, label = 'Copy', className = 'icon-button' }: CopyButtonProps) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={className}
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      onClick={() => {
        copyRich(text, html?.())
          .then(() => setCopied(true))
          .catch((error) => console.error('Copy failed', error));
      }}
    >
      <Icon name={copied ? 'check' : 'copy'} size={16} />
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}
