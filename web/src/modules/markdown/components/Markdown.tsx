import type { Token, Tokens } from 'marked';
import { Fragment, memo, useId, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import type { FootnoteRefToken, FootnoteToken, MathToken } from '../utils/extensions';
import { lexMarkdown, type Lexed } from '../utils/incrementalLex';
import { decodeEntities, safeHref } from '../utils/safeUrl';
import { CodeBlock } from './CodeBlock';
import { FootnoteReference, Footnotes, FootnotesContext, footnotesOf } from './Footnotes';
import { MathFormula } from './MathFormula';
import { MarkedText } from '../../search/components/SearchMarks';

type MarkdownProps = { text: string; streaming?: boolean };

/**
 * Markdown rendered to React elements from marked's tokens: no raw HTML ever reaches the page
 * (HTML in a message shows as text), links open in a new tab, code is highlighted on demand,
 * formulas are typeset by KaTeX (loaded with the first one), footnotes listed at the end.
 * Each top-level block is memoised on its source, so a streaming reply re-renders its last block only,
 * and the text is lexed again only from its last blocks on (utils/incrementalLex.ts).
 */
export function Markdown({ text, streaming }: MarkdownProps) {
  const lexed = useRef<Lexed | undefined>(undefined);
  const tokens = useMemo(() => lexMarkdown(text, lexed.current), [text]);
  // After the render that used it (a render React throws away must not move it).
  useLayoutEffect(() => {
    lexed.current = { text, tokens };
  }, [text, tokens]);
  const prefix = `${useId().replace(/[^\w-]/g, '')}-`;
  const footnotes = useMemo(() => footnotesOf(text, tokens, prefix), [text, tokens, prefix]);
  const last = tokens.length - 1;
  return (
    <div className="markdown">
      <FootnotesContext.Provider value={footnotes}>
        {tokens.map((token, index) => (
          <Block key={index} token={token} raw={token.raw} streaming={!!streaming && index === last} />
        ))}
        <Footnotes footnotes={footnotes} render={renderNote} />
      </FootnotesContext.Provider>
    </div>
  );
}

type BlockProps = { token: Token; raw: string; streaming: boolean };

const Block = memo(
  function Block({ token, streaming }: BlockProps) {
    return <>{renderBlock(token, streaming)}</>;
  },
  (a, b) => a.raw === b.raw && a.streaming === b.streaming && a.token.type === b.token.type,
);

function renderBlocks(tokens: Token[] | undefined, streaming = false): ReactNode {
  return tokens?.map((token, index) => <Fragment key={index}>{renderBlock(token, streaming && index === tokens.length - 1)}</Fragment>);
}

function renderBlock(token: Token, streaming: boolean): ReactNode {
  switch (token.type) {
    case 'space':
    case 'def':
    case 'footnote': // listed at the end
      return null;
    case 'math': {
      const math = token as unknown as MathToken;
      return <MathFormula tex={math.text} display block />;
    }
    case 'checkbox':
      return <TaskBox checked={(token as Tokens.Checkbox).checked} />;
    case 'code': {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} language={code.lang} streaming={streaming} />;
    }
    case 'heading': {
      const heading = token as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(1, heading.depth + 2))}` as 'h3';
      return <Tag>{renderInline(heading.tokens)}</Tag>;
    }
    case 'hr':
      return <hr />;
    case 'blockquote':
      return <blockquote>{renderBlocks((token as Tokens.Blockquote).tokens)}</blockquote>;
    case 'list': {
      const list = token as Tokens.List;
      // A task's checkbox is its first token (in its first paragraph when the list is loose): it is
      // rendered where it stands, so the box and the words share their line.
      const items = list.items.map((item, index) => (
        <li key={index} className={item.task ? 'task' : undefined}>
          {list.loose ? renderBlocks(item.tokens) : renderTight(item.tokens)}
        </li>
      ));
      const className = list.items.some((item) => item.task) ? 'contains-task-list' : undefined;
      return list.ordered ? (
        <ol className={className} start={typeof list.start === 'number' && list.start !== 1 ? list.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul className={className}>{items}</ul>
      );
    }
    case 'table': {
      const table = token as Tokens.Table;
      return (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Table">
          <table>
            <thead>
              <tr>
                {table.header.map((cell, index) => (
                  <th key={index} style={cell.align ? { textAlign: cell.align } : undefined} scope="col">
                    {renderInline(cell.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} style={cell.align ? { textAlign: cell.align } : undefined}>
                      {renderInline(cell.tokens)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'paragraph':
      return <p>{renderInline((token as Tokens.Paragraph).tokens)}</p>;
    case 'html':
      return <p>{(token as Tokens.HTML).text}</p>;
    case 'text': {
      const text = token as Tokens.Text;
      return <p>{text.tokens ? renderInline(text.tokens) : decodeEntities(text.text)}</p>;
    }
    default:
      return 'raw' in token && typeof token.raw === 'string' ? <p>{token.raw}</p> : null;
  }
}

/** A task list item's box (GitHub's: shown, not changed from the reply). */
function TaskBox({ checked }: { checked: boolean }) {
  return <input type="checkbox" className="task__box" checked={checked} readOnly disabled aria-label={checked ? 'Done' : 'Not done'} />;
}

/** A footnote's text, its way back to the reference at the end of its last paragraph. */
function renderNote(note: FootnoteToken, back: ReactNode): ReactNode {
  const blocks = note.tokens.filter((token) => token.type !== 'space');
  const last = blocks[blocks.length - 1];
  if (last?.type !== 'paragraph') {
    return (
      <>
        {renderBlocks(blocks)} {back}
      </>
    );
  }
  return (
    <>
      {renderBlocks(blocks.slice(0, -1))}
      <p>
        {renderInline((last as Tokens.Paragraph).tokens)} {back}
      </p>
    </>
  );
}

/** Tight list items: their text blocks are inline, without paragraphs. */
function renderTight(tokens: Token[]): ReactNode {
  return tokens.map((token, index) =>
    token.type === 'text' ? (
      <Fragment key={index}>
        {(token as Tokens.Text).tokens ? (
          renderInline((token as Tokens.Text).tokens)
        ) : (
          <MarkedText text={decodeEntities((token as Tokens.Text).text)} />
        )}
      </Fragment>
    ) : (
      <Fragment key={index}>{renderBlock(token, false)}</Fragment>
    ),
  );
}

function renderInline(tokens: Token[] | undefined): ReactNode {
  return tokens?.map((token, index) => <Fragment key={index}>{inline(token)}</Fragment>);
}

function inline(token: Token): ReactNode {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? renderInline(text.tokens) : <MarkedText text={decodeEntities(text.text)} />;
    }
    case 'escape':
      return <MarkedText text={decodeEntities((token as Tokens.Escape).text)} />;
    case 'strong':
      return <strong>{renderInline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{renderInline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{renderInline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return (
        <code>
          <MarkedText text={decodeEntities((token as Tokens.Codespan).text)} />
        </code>
      );
    case 'br':
      return <br />;
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      if (!href) return renderInline(link.tokens);
      return (
        <a href={href} target="_blank" rel="noopener noreferrer" title={link.title ?? undefined}>
          {renderInline(link.tokens)}
        </a>
      );
    }
    case 'image': {
      const image = token as Tokens.Image;
      const href = safeHref(image.href);
      if (!href) return image.text;
      // External images are not loaded (privacy, CSP): a link to them instead.
      if (/^https?:/i.test(href) && !href.startsWith(window.location.origin)) {
        return (
          <a href={href} target="_blank" rel="noopener noreferrer">
            {image.text || href}
          </a>
        );
      }
      return <img src={href} alt={image.text} loading="lazy" />;
    }
    case 'html':
      return (token as Tokens.HTML).text;
    case 'checkbox':
      return <TaskBox checked={(token as Tokens.Checkbox).checked} />;
    case 'math': {
      const math = token as unknown as MathToken;
      return <MathFormula tex={math.text} display={math.display} />;
    }
    case 'footnoteRef':
      return <FootnoteReference token={token as unknown as FootnoteRefToken} />;
    default:
      return 'raw' in token && typeof token.raw === 'string' ? token.raw : null;
  }
}
