import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { GuardedFetch, OutboundRefused } from '../tools/outbound/guarded-fetch';

export interface ReadPage {
  url: string;
  title: string;
  site: string;
  text: string;
  truncated: boolean;
}

export interface PageLimits {
  maxBytes: number;
  timeoutMs: number;
  maxChars: number;
}

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i;
const TEXT = /^text\/plain\b/i;

/**
 * A page the model chose to read, fetched through the outbound guard and reduced to its readable
 * text by Mozilla's Readability (Firefox's reader view) on a jsdom document that runs no script and
 * loads nothing. Only HTML and plain text are read; size and time are limited.
 */
export class PageReader {
  constructor(
    private readonly fetcher: Pick<GuardedFetch, 'fetch'>,
    private readonly limits: PageLimits,
  ) {}

  async read(url: string, signal: AbortSignal): Promise<ReadPage> {
    const page = await this.fetcher.fetch(url, {
      signal,
      timeoutMs: this.limits.timeoutMs,
      maxBytes: this.limits.maxBytes,
      headers: { accept: 'text/html, text/plain;q=0.9', 'user-agent': 'AssistantPageReader/1.0' },
    });
    if (page.status >= 400) throw new OutboundRefused(`The page answered ${page.status}.`);
    const type = page.headers.get('content-type') ?? 'text/html';
    const site = new URL(page.url).hostname;
    const decoded = decode(page.body, type);
    let title = site;
    let text: string;
    if (HTML.test(type)) {
      const dom = new JSDOM(decoded, { url: page.url, virtualConsole: new VirtualConsole() });
      const article = new Readability(dom.window.document, { charThreshold: 100 }).parse();
      title = article?.title?.trim() || dom.window.document.title || site;
      text = tidy(article?.textContent ?? dom.window.document.body?.textContent ?? '');
      dom.window.close();
    } else if (TEXT.test(type)) {
      text = tidy(decoded);
    } else {
      throw new OutboundRefused(`That is not a page of text (${type.split(';')[0]}).`);
    }
    const truncated = text.length > this.limits.maxChars;
    return { url: page.url, title, site, text: truncated ? text.slice(0, this.limits.maxChars) : text, truncated };
  }
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/"/g, '') ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Paragraphs kept, runs of spaces and blank lines folded. */
function tidy(text: string): string {
  return text
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
