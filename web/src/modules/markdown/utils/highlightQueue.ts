/**
 * Code blocks are highlighted a few at a time, in tasks of at most SLICE_MS, not all in the task
 * that renders them: a reply with twenty code blocks, stored at the end of its stream, or a long
 * conversation scrolled through, would otherwise highlight them all in one long task. Results are
 * kept per code and language, so a block rendered again (scrolled back into view) is highlighted at
 * once, without a job.
 */
type Highlighter = typeof import('./highlight');

const SLICE_MS = 8;
const CACHED = 512;

let highlighter: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;
const load = () => (loading ??= import('./highlight'));

const results = new Map<string, string | null>();
type Job = { key: string; code: string; language: string | undefined; done: (html: string | null) => void };
const queue = new Set<Job>();
let scheduled = false;

const keyOf = (code: string, language: string | undefined) => `${language ?? ''}\n${code}`;

function remember(key: string, html: string | null): void {
  results.delete(key);
  results.set(key, html);
  if (results.size > CACHED) results.delete(results.keys().next().value as string);
}

/** The highlighted HTML already known for this code (null: not highlightable), or undefined. */
export function highlightedBefore(code: string, language: string | undefined): string | null | undefined {
  return results.get(keyOf(code, language));
}

function run(): void {
  scheduled = false;
  if (!highlighter) return;
  const started = performance.now();
  for (const job of queue) {
    if (performance.now() - started >= SLICE_MS) break;
    queue.delete(job);
    const html = results.has(job.key) ? (results.get(job.key) ?? null) : highlighter.highlight(job.code, job.language);
    remember(job.key, html);
    job.done(html);
  }
  schedule();
}

function schedule(): void {
  if (scheduled || queue.size === 0) return;
  scheduled = true;
  setTimeout(run, 0);
}

/** Highlights the code in a task of its own, soon; answers a function that cancels it. */
export function highlightSoon(code: string, language: string | undefined, done: (html: string | null) => void): () => void {
  const job: Job = { key: keyOf(code, language), code, language, done };
  queue.add(job);
  if (highlighter) schedule();
  else
    void load()
      .then((module) => {
        highlighter = module;
        schedule();
      })
      .catch((error) => console.error('Highlighter failed to load', error));
  return () => queue.delete(job);
}
