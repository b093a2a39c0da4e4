import { FakeWeb } from '@app/testing';
import { GuardedFetch } from '../tools/outbound/guarded-fetch';
import { ToolRefusal, type ToolCallContext } from '../tools/chat-tool';
import { BraveSearchProvider } from './brave.provider';
import { PageReader } from './page-reader';
import { SearxngProvider } from './searxng.provider';
import { CITE_INSTRUCTIONS, ReadPageTool, SEARCH_OFF_NOTE, SearchWebTool } from './web.tools';

const RESULTS = [
  { title: 'Lisbon <b>trams</b> &amp; funiculars', url: 'https://trams.example/lisbon', snippet: 'Tram 28 climbs <em>Alfama</em>.' },
  { title: 'Duplicate', url: 'https://trams.example/lisbon', snippet: 'the same link again' },
  { title: 'Not a web link', url: 'javascript:alert(1)', snippet: 'x' },
  { title: 'Carris', url: 'https://carris.example/', snippet: 'Timetables.' },
];

/** A tool context whose sources are numbered in order, as the tool loop does. */
function context(signal = new AbortController().signal) {
  const cited: { title: string; url: string }[] = [];
  const ctx: ToolCallContext = {
    caller: { user_id: 'u', is_anon: true, session_id: 's', request_id: 'r' } as ToolCallContext['caller'],
    chatId: 'c',
    signal,
    cite: (source) => {
      const known = cited.findIndex((c) => c.url === source.url);
      if (known >= 0) return known + 1;
      cited.push(source);
      return cited.length;
    },
  };
  return { ctx, cited };
}

describe('web search', () => {
  const web = new FakeWeb();
  let guard: GuardedFetch;

  beforeAll(async () => {
    await web.start();
    web.searchResults(RESULTS);
    web
      .page('/article', {
        title: 'The trams of Lisbon',
        paragraphs: [
          'Lisbon has run trams since 1873, first pulled by horses and electrified in 1901, and the yellow cars are still part of daily life in the old quarters.',
          'Tram 28 is the most famous line: it winds through Graça, Alfama, Baixa and Estrela on tracks so narrow that the cars almost touch the walls.',
          'The city keeps the old Remodelado cars because modern trams cannot take the steep hills and tight corners of the historic route.',
        ],
      })
      .page('/notes.txt', { title: 'x', body: 'Plain   notes\n\n\nabout trams.', contentType: 'text/plain; charset=utf-8' })
      .page('/paper.pdf', { title: 'x', body: Buffer.from('%PDF-1.7'), contentType: 'application/pdf' })
      .page('/gone', { title: 'x', status: 404, body: 'not here' })
      .page('/long', {
        title: 'Long',
        paragraphs: Array.from({ length: 80 }, (_, i) => `Paragraph ${i} about trams and the hills of Lisbon and more words.`),
      });
    guard = new GuardedFetch({ allowedPrivateHosts: [new URL(web.url).host] });
  });
  afterAll(async () => {
    await guard.close();
    await web.stop();
  });

  it('reads SearXNG JSON results: plain text, http(s) links only, no duplicates, at most the limit', async () => {
    const results = await new SearxngProvider(web.url).search('lisbon trams', { limit: 5, signal: new AbortController().signal });
    expect(results).toEqual([
      { title: 'Lisbon trams & funiculars', url: 'https://trams.example/lisbon', snippet: 'Tram 28 climbs Alfama.' },
      { title: 'Carris', url: 'https://carris.example/', snippet: 'Timetables.' },
    ]);
    const asked = web.requests.filter((r) => r.path === '/search').at(-1)!;
    expect(Object.fromEntries(asked.query)).toMatchObject({ q: 'lisbon trams', format: 'json' });
    expect(await new SearxngProvider(web.url).search('x', { limit: 1, signal: new AbortController().signal })).toHaveLength(1);
  });

  it('reads Brave Search results with the key, and fails clearly with a wrong one', async () => {
    const brave = new BraveSearchProvider(web.braveKey, web.url);
    expect((await brave.search('lisbon trams', { limit: 5, signal: new AbortController().signal })).map((r) => r.url)).toEqual([
      'https://trams.example/lisbon',
      'https://carris.example/',
    ]);
    await expect(new BraveSearchProvider('wrong', web.url).search('x', { limit: 5, signal: new AbortController().signal })).rejects.toThrow(
      'The search engine answered 401.',
    );
  });

  it('numbers each result as a source, tells the model to cite them, and is not offered without an engine', async () => {
    const tool = new SearchWebTool(new SearxngProvider(web.url), 5);
    const { ctx, cited } = context();
    const result = await tool.run({ query: 'lisbon trams' }, ctx);
    expect(JSON.parse(result.output).results.map((r: { n: number; site: string }) => [r.n, r.site])).toEqual([
      [1, 'trams.example'],
      [2, 'carris.example'],
    ]);
    expect(cited.map((c) => c.url)).toEqual(['https://trams.example/lisbon', 'https://carris.example/']);
    expect(result.summary).toBe('2 results for "lisbon trams"');
    expect(await tool.instructions()).toBe(CITE_INSTRUCTIONS);
    const off = new SearchWebTool(null, 5);
    expect(off.offered()).toBe(false);
    expect(await off.instructions()).toBe(SEARCH_OFF_NOTE);
    await expect(new SearchWebTool(new SearxngProvider('http://127.0.0.1:9/'), 5).run({ query: 'x' }, ctx)).rejects.toEqual(
      new ToolRefusal('The search engine could not be reached.'),
    );
  });

  it('reduces a page to its readable text with Readability (no navigation, adverts or footer), and cites it', async () => {
    const reader = new PageReader(guard, { maxBytes: 100_000, timeoutMs: 2_000, maxChars: 5_000 });
    const tool = new ReadPageTool(reader);
    const { ctx, cited } = context();
    const result = await tool.run({ url: `${web.url}/article` }, ctx);
    const page = JSON.parse(result.output);
    expect(page).toMatchObject({ n: 1, title: 'The trams of Lisbon', truncated: false });
    expect(page.text).toContain('Tram 28 is the most famous line');
    for (const noise of ['Buy the new phone', 'Cookie settings', 'Sport', 'trackEverything']) expect(page.text).not.toContain(noise);
    expect(cited).toEqual([{ title: 'The trams of Lisbon', url: `${web.url}/article` }]);
    expect(tool.label({ url: 'https://www.example.org/x' })).toBe('Reading example.org');
  });

  it('reads plain text, cuts a long page, and refuses what is not text, an error page and a private address', async () => {
    const reader = new PageReader(guard, { maxBytes: 100_000, timeoutMs: 2_000, maxChars: 500 });
    const signal = new AbortController().signal;
    expect((await reader.read(`${web.url}/notes.txt`, signal)).text).toBe('Plain notes\n\nabout trams.');
    const long = await reader.read(`${web.url}/long`, signal);
    expect(long).toMatchObject({ truncated: true });
    expect(long.text).toHaveLength(500);
    const tool = new ReadPageTool(reader);
    const { ctx } = context();
    await expect(tool.run({ url: `${web.url}/paper.pdf` }, ctx)).rejects.toEqual(
      new ToolRefusal('The page was not read: That is not a page of text (application/pdf).'),
    );
    await expect(tool.run({ url: `${web.url}/gone` }, ctx)).rejects.toEqual(
      new ToolRefusal('The page was not read: The page answered 404.'),
    );
    await expect(tool.run({ url: 'http://169.254.169.254/latest/meta-data/' }, ctx)).rejects.toEqual(
      new ToolRefusal('The page was not read: 169.254.169.254 is not a public address.'),
    );
  });
});
