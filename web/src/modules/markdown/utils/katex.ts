/**
 * The typesetter, loaded on demand (its own chunk, with KaTeX's style sheet and fonts): only a
 * reply with a formula brings it. Answers KaTeX's HTML (with MathML for screen readers); a formula
 * KaTeX cannot read is shown as its source, in the error colour, rather than failing the message.
 * `trust: false` keeps `\href`, `\url`, `\includegraphics` and `\html*` out of a message.
 */
import katex from 'katex';
import 'katex/dist/katex.min.css';

export function typeset(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    output: 'htmlAndMathml',
    trust: false,
    strict: 'ignore',
    maxSize: 20,
    maxExpand: 200,
  });
}
