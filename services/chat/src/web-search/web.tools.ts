import { z } from 'zod';
import { ToolRefusal, type ChatTool, type ToolCallContext, type ToolResult } from '../tools/chat-tool';
import { OutboundRefused } from '../tools/outbound/guarded-fetch';
import type { PageReader } from './page-reader';
import { SearchFailed, type SearchProvider } from './search-provider';

const siteOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

export const CITE_INSTRUCTIONS =
  'When you use what search_web or read_page found, cite it with its number in square brackets, like [1], right after what it supports.';
export const SEARCH_OFF_NOTE =
  'Web search is not configured on this server: you cannot look anything up. If the user needs current information, say so.';

const SearchArgs = z.object({ query: z.string().trim().min(1).max(300).describe('What to search the web for') });

/** Searches the web (the configured engine); each result is numbered as a source the reply can cite. */
export class SearchWebTool implements ChatTool<z.infer<typeof SearchArgs>> {
  readonly name = 'search_web';
  readonly description = 'Search the web. Answers numbered results (title, site, link, snippet) to cite as [n].';
  readonly parameters = SearchArgs;

  constructor(
    private readonly provider: SearchProvider | null,
    private readonly limit: number,
  ) {}

  offered(): boolean {
    return this.provider != null;
  }

  label(): string {
    return 'Searching the web';
  }

  async instructions(): Promise<string> {
    return this.provider != null ? CITE_INSTRUCTIONS : SEARCH_OFF_NOTE;
  }

  async run(args: z.infer<typeof SearchArgs>, context: ToolCallContext): Promise<ToolResult> {
    if (!this.provider) throw new ToolRefusal('Web search is not configured on this server.');
    let found;
    try {
      found = await this.provider.search(args.query, { limit: this.limit, signal: context.signal });
    } catch (error) {
      if (error instanceof SearchFailed) throw new ToolRefusal(error.message);
      throw error;
    }
    const results = found.map((r) => ({
      n: context.cite({ title: r.title, url: r.url }),
      title: r.title,
      site: siteOf(r.url),
      url: r.url,
      snippet: r.snippet,
    }));
    return {
      output: JSON.stringify({ query: args.query, results }),
      summary: `${results.length} result${results.length === 1 ? '' : 's'} for "${args.query}"`,
    };
  }
}

const ReadArgs = z.object({ url: z.string().trim().min(1).max(2_000).describe('The http(s) address of the page to read') });

/** Reads a page (one of the results, or one the user gave) as its readable text; it becomes a source. */
export class ReadPageTool implements ChatTool<z.infer<typeof ReadArgs>> {
  readonly name = 'read_page';
  readonly description =
    'Read a web page: answers its title and its readable text (no navigation or adverts), numbered as a source to cite as [n].';
  readonly parameters = ReadArgs;

  constructor(private readonly reader: Pick<PageReader, 'read'> | null) {}

  offered(): boolean {
    return this.reader != null;
  }

  label(args: z.infer<typeof ReadArgs>): string {
    try {
      return `Reading ${siteOf(args.url)}`;
    } catch {
      return 'Reading a page';
    }
  }

  async run(args: z.infer<typeof ReadArgs>, context: ToolCallContext): Promise<ToolResult> {
    if (!this.reader) throw new ToolRefusal('Reading web pages is not configured on this server.');
    let page;
    try {
      page = await this.reader.read(args.url, context.signal);
    } catch (error) {
      if (error instanceof OutboundRefused) throw new ToolRefusal(`The page was not read: ${error.reason}`);
      throw error;
    }
    const n = context.cite({ title: page.title, url: page.url });
    return {
      output: JSON.stringify({ n, title: page.title, site: page.site, url: page.url, text: page.text, truncated: page.truncated }),
      summary: `${page.title} (${page.site}, ${page.text.length} characters)`,
    };
  }
}
