import type { Citation } from '@app/contracts/chat';

type SourcesProps = { citations: Citation[] | undefined };

/** The sources a reply cites, numbered as its markers: title, site, link opening in a new tab. */
export function Sources({ citations }: SourcesProps) {
  if (!citations?.length) return null;
  return (
    <section className="sources" aria-label="Sources">
      <h3 className="sources__title">Sources</h3>
      <ol className="sources__list">
        {citations.map((source) => (
          <li key={source.n} value={source.n}>
            <a href={source.url} target="_blank" rel="noopener noreferrer">
              {source.title}
            </a>{' '}
            <span className="muted small">{source.site}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
