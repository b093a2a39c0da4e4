import type { BrowserContext, Page, Route } from 'playwright-core';
import { openGuestChat, screenshot, scriptedModelSuite, VIEWPORTS } from './support/product';
import { until } from '../support/until';

/**
 * Issue 22, items 7-9, in Chromium against the built product: a reply rendered as GitHub renders
 * its markdown (a reference document compared element by element), math typeset by KaTeX loaded
 * only when a reply has some, read-aloud sending the words a person reads, and the frame of the app:
 * a phone's header, a skeleton before the code arrives, a `<main>` landmark.
 */

/** The GFM reference document: each construct GitHub renders, with HTML that must stay text. */
const REFERENCE = [
  '# Shopping and notes',
  '',
  'Text with ~~struck~~ words, **bold**, *emphasis*, `code` and a [link](https://example.com/page "Example").',
  'Visit https://example.org today.',
  '',
  '- [ ] Buy milk',
  '- [x] Write **tests**',
  '',
  '1. First',
  '   - nested a',
  '   - nested b',
  '     1. deeper',
  '2. Second',
  '',
  '| Left | Centre | Right |',
  '| :--- | :----: | ----: |',
  '| a | b | c |',
  '',
  'A footnote reference[^1] and another[^note].',
  '',
  '![Logo](/favicon.svg) and ![remote](https://example.net/x.png)',
  '',
  'Inline <b>bold?</b> & 5 < 6, a [^missing] reference.',
  '',
  '<script>alert(1)</script>',
  '',
  '- [ ] a loose task',
  '',
  '- [x] another loose task',
  '',
  '[^1]: The first footnote.',
  '[^note]: A named footnote with *emphasis*.',
].join('\n');

/** What the reference document must give, as [tag, attributes, ...children] (text trimmed, white space collapsed). */
type Outline = string | [string, Record<string, string>, ...Outline[]];
const REFERENCE_OUTLINE: Outline[] = [
  ['h3', {}, 'Shopping and notes'],
  [
    'p',
    {},
    'Text with',
    ['del', {}, 'struck'],
    'words,',
    ['strong', {}, 'bold'],
    ',',
    ['em', {}, 'emphasis'],
    ',',
    ['code', {}, 'code'],
    'and a',
    ['a', { href: 'https://example.com/page', title: 'Example' }, 'link'],
    '. Visit',
    ['a', { href: 'https://example.org' }, 'https://example.org'],
    'today.',
  ],
  [
    'ul',
    { class: 'contains-task-list' },
    ['li', { class: 'task' }, ['input', { type: 'checkbox' }], 'Buy milk'],
    ['li', { class: 'task' }, ['input', { type: 'checkbox', checked: '' }], 'Write', ['strong', {}, 'tests']],
  ],
  [
    'ol',
    {},
    ['li', {}, 'First', ['ul', {}, ['li', {}, 'nested a'], ['li', {}, 'nested b', ['ol', {}, ['li', {}, 'deeper']]]]],
    ['li', {}, 'Second'],
  ],
  [
    'table',
    {},
    [
      'thead',
      {},
      ['tr', {}, ['th', { align: 'left' }, 'Left'], ['th', { align: 'center' }, 'Centre'], ['th', { align: 'right' }, 'Right']],
    ],
    ['tbody', {}, ['tr', {}, ['td', { align: 'left' }, 'a'], ['td', { align: 'center' }, 'b'], ['td', { align: 'right' }, 'c']]],
  ],
  [
    'p',
    {},
    'A footnote reference',
    ['sup', {}, ['a', { href: '#fn-1', id: 'fnref-1' }, '1']],
    'and another',
    ['sup', {}, ['a', { href: '#fn-2', id: 'fnref-2' }, '2']],
    '.',
  ],
  ['p', {}, ['img', { src: '/favicon.svg', alt: 'Logo' }], 'and', ['a', { href: 'https://example.net/x.png' }, 'remote']],
  ['p', {}, 'Inline <b>bold?</b> & 5 < 6, a [^missing] reference.'],
  ['p', {}, '<script>alert(1)</script>'],
  [
    'ul',
    { class: 'contains-task-list' },
    ['li', { class: 'task' }, ['p', {}, ['input', { type: 'checkbox' }], 'a loose task']],
    ['li', { class: 'task' }, ['p', {}, ['input', { type: 'checkbox', checked: '' }], 'another loose task']],
  ],
  [
    'section',
    { class: 'footnotes' },
    ['h3', {}, 'Footnotes'],
    [
      'ol',
      {},
      ['li', { id: 'fn-1' }, ['p', {}, 'The first footnote.', ['a', { href: '#fnref-1' }, '↩']]],
      ['li', { id: 'fn-2' }, ['p', {}, 'A named footnote with', ['em', {}, 'emphasis'], '.', ['a', { href: '#fnref-2' }, '↩']]],
    ],
  ],
];

const MATH = [
  'Display: $$\\frac{a}{b}$$',
  '',
  'Inline \\(x^2\\) and $y_1 + y_2$ in a sentence.',
  '',
  '\\[\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}\\]',
  '',
  '$$',
  'E = mc^2',
  '$$',
  '',
  'Prices: it costs $5 and $10, or between $5-$10; escaped \\$x\\$ and code `$z$` stay as they are.',
].join('\n');

/** Twelve lines of Python, announced rather than spelled out. */
const PYTHON = Array.from({ length: 12 }, (_, i) => (i === 0 ? 'def total(items):' : `    value_${i} = items[${i}] * 2  # step ${i}`));
const SPOKEN_REPLY = [
  '## Sorting a list',
  '',
  'Use the built-in **`sorted`** function; see the [Python docs](https://docs.python.org/3/library/functions.html#sorted) for *details*.',
  '',
  '```python',
  ...PYTHON,
  '```',
  '',
  '| Method | Stable |',
  '| --- | --- |',
  '| `sorted()` | yes |',
  '',
  '- first, keep ~~it~~ simple',
  '- then read <https://example.com/more>',
  '',
  'That is all.',
].join('\n');

const LONG_TITLE = 'Planning a week of vegetarian dinners';
const VERY_LONG_TITLE = 'Planning a week of vegetarian dinners for a family of five with two teenagers and a very tight budget in winter';

/** The last thing the user said, in a Chat Completions request. */
function lastUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const content = last?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join(' ');
  return '';
}

/** A reply of 80 words: streamed slowly (12 s), it is still being written while a test looks elsewhere. */
const SLOW_REPLY = Array.from({ length: 80 }, (_, i) => `word${i + 1}`).join(' ');

function replyTo(question: string): string {
  if (question.includes('slowly')) return SLOW_REPLY;
  if (question.includes('reference document')) return REFERENCE;
  if (question.includes('math')) return MATH;
  if (question.includes('sort')) return SPOKEN_REPLY;
  return 'Plain words, no formula: it costs $5 and $10.';
}

describe('a reply rendered and read as people write it; the frame of the app (issue 22, items 7-9)', () => {
  const suite = scriptedModelSuite({
    apiKey: 'render-test-key',
    replies: {
      'chat.completions': (body) =>
        body.stream
          ? { steps: [{ text: replyTo(lastUserText(body)), chunk: 'word', intervalMs: lastUserText(body).includes('slowly') ? 150 : 1 }] }
          : LONG_TITLE,
    },
    figuresFile: 'web-render.json',
    figuresLabel: 'Web render figures',
  });
  const { figures } = suite;

  async function openChat(viewport: { width: number; height: number } = VIEWPORTS.wide): Promise<{ context: BrowserContext; page: Page }> {
    const context = await suite.browser.newContext({ baseURL: suite.product.url, viewport, deviceScaleFactor: 1 });
    context.setDefaultTimeout(20_000);
    const { page } = await openGuestChat(context);
    return { context, page };
  }

  /** Sends `text` and waits for the stored reply; answers its element. */
  async function ask(page: Page, text: string) {
    const before = await page.locator('article.message--assistant:not(.message--draft)').count();
    await page.getByLabel('Message', { exact: true }).fill(text);
    await page.getByRole('button', { name: 'Send message' }).click();
    const reply = page.locator('article.message--assistant:not(.message--draft)').nth(before);
    await reply.waitFor({ timeout: 60_000 });
    await page.locator('.message--draft').waitFor({ state: 'detached', timeout: 60_000 });
    return reply;
  }

  /** The element tree under `selector`: tags, the attributes that carry meaning, and text. */
  const outline = (page: Page, selector: string) =>
    page.locator(selector).evaluate((container) => {
      type Node = string | [string, Record<string, string>, ...Node[]];
      const KEPT = ['href', 'title', 'src', 'alt', 'type', 'id'];
      const walk = (element: Element): Node[] => {
        const out: Node[] = [];
        // Adjacent text nodes (React splits them) read as one.
        let text = '';
        const flush = () => {
          const collapsed = text.replace(/\s+/g, ' ').trim();
          if (collapsed) out.push(collapsed);
          text = '';
        };
        for (const child of Array.from(element.childNodes)) {
          if (child.nodeType === 3) {
            text += child.textContent ?? '';
            continue;
          }
          if (!(child instanceof Element)) continue;
          flush();
          // Wrappers that carry no meaning of the markdown (the table's scroll box) are looked through.
          if (child.classList.contains('table-wrap')) {
            out.push(...walk(child));
            continue;
          }
          const attributes: Record<string, string> = {};
          for (const name of KEPT) {
            const value = child.getAttribute(name);
            if (value === null) continue;
            // Ids and fragment links are per message (a prefix): compare what follows it.
            attributes[name] =
              name === 'id' || (name === 'href' && value.startsWith('#')) ? value.replace(/^(#?).*?(fn(?:ref)?-\d+)$/, '$1$2') : value;
          }
          if (child instanceof HTMLInputElement && child.checked) attributes.checked = '';
          const align = (child as HTMLElement).style?.textAlign;
          if (align) attributes.align = align;
          const kept = ['task', 'contains-task-list', 'footnotes'].filter((name) => child.classList.contains(name));
          if (kept.length) attributes.class = kept.join(' ');
          const tag = child.tagName.toLowerCase();
          out.push([tag, attributes, ...walk(child)]);
        }
        flush();
        return out;
      };
      return walk(container);
    }) as Promise<Outline[]>;

  it('renders the GFM reference document as GitHub does: tasks, nested lists, footnotes, strikethrough, aligned tables, images, HTML as text', async () => {
    const { context, page } = await openChat();
    const reply = await ask(page, 'Show me the reference document.');
    const body = reply.locator('.markdown').first();
    await body.waitFor();
    expect(await outline(page, 'article.message--assistant:not(.message--draft) .markdown')).toEqual(REFERENCE_OUTLINE);
    // A task's checkbox and its words sit on one line, and no "[ ]" is left in the text.
    const task = body.locator('li.task').first();
    const [box, words] = await Promise.all([
      task.locator('input').boundingBox(),
      task.evaluate((li) => {
        const range = document.createRange();
        range.selectNodeContents(li);
        const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0);
        return { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
      }),
    ]);
    expect(words.bottom - words.top).toBeLessThan(2 * (box!.height + 8));
    expect(await body.innerText()).not.toMatch(/\[[ xX]\]/);
    // A footnote reference leads to its note, and the note back to the reference.
    await body.locator('sup a').first().click();
    await until('the footnote has the focus', () => page.evaluate(() => document.activeElement?.id.endsWith('fn-1') ?? false), 5_000);
    await body.locator('section.footnotes').scrollIntoViewIfNeeded();
    await screenshot(page, 'render-gfm-reference');
    await body.locator('li.task').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'render-gfm-tasks');
    await context.close();
  }, 120_000);

  it('typesets math with KaTeX, loaded only once a reply has some; prices, escapes and code stay text', async () => {
    const { context, page } = await openChat();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await ask(page, 'Say something plain.');
    const plain = page.locator('article.message--assistant:not(.message--draft)').last();
    expect(await plain.locator('.katex').count()).toBe(0);
    expect(await plain.innerText()).toContain('it costs $5 and $10.');
    expect(requested.filter((path) => /katex/i.test(path))).toEqual([]);

    const reply = await ask(page, 'Show me some math.');
    await reply.locator('.katex').first().waitFor();
    const formulas = await reply.locator('.katex').evaluateAll((nodes) =>
      nodes.map((node) => ({
        tex: node.querySelector('annotation[encoding="application/x-tex"]')?.textContent ?? null,
        display: !!node.closest('.katex-display'),
      })),
    );
    expect(formulas).toEqual([
      { tex: '\\frac{a}{b}', display: true },
      { tex: 'x^2', display: false },
      { tex: 'y_1 + y_2', display: false },
      { tex: '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}', display: true },
      { tex: 'E = mc^2', display: true },
    ]);
    // Typeset, not the source: a fraction is laid out, and no TeX is left in the text.
    expect(await reply.locator('.katex-html .mfrac').count()).toBeGreaterThan(0);
    const prices = reply.locator('p', { hasText: 'Prices' });
    expect(await prices.locator('.katex').count()).toBe(0);
    expect(await prices.innerText()).toBe('Prices: it costs $5 and $10, or between $5-$10; escaped $x$ and code $z$ stay as they are.');
    expect(requested.some((path) => /katex.*\.js$/.test(path))).toBe(true);
    figures.katexFiles = [...new Set(requested.filter((path) => /katex/i.test(path)))];
    await screenshot(page, 'render-math');
    await context.close();
  }, 120_000);

  it('reads aloud what a person reads: link text, no markup, a code block announced in a few words', async () => {
    const { context, page } = await openChat();
    const sent: Record<string, unknown>[] = [];
    // The audio itself does not matter here: a tenth of a second of silence answers each chunk at once.
    await page.route('**/api/v1/text-to-speech/file', async (route: Route) => {
      sent.push(route.request().postDataJSON() as Record<string, unknown>);
      await route.fulfill({ status: 200, headers: { 'content-type': 'audio/pcm;rate=24000;channels=1' }, body: Buffer.alloc(4800) });
    });
    const reply = await ask(page, 'How do I sort a list?');
    await reply.getByRole('button', { name: 'Read aloud' }).click();
    await until('every chunk was asked for and played', async () => {
      // Read to its end: the reply offers to read it aloud again.
      return sent.length > 0 && (await reply.getByRole('button', { name: 'Read aloud' }).count()) > 0;
    });
    const spoken = sent.map((request) => request.text as string).join(' ');
    figures.readAloud = { requests: sent.length, characters: spoken.length, sourceCharacters: SPOKEN_REPLY.length, spoken };
    // The spec's fields, and the client's own reading: the server is not asked to normalise.
    for (const request of sent) {
      expect(
        Object.keys(request)
          .filter((key) => !['voice', 'speed', 'format'].includes(key))
          .sort(),
      ).toEqual(
        ['chat_id', 'message_id', 'normalize_text_for_reading', 'text'].concat('openai_model' in request ? ['openai_model'] : []).sort(),
      );
      expect(request.normalize_text_for_reading).toBe(false);
    }
    expect(spoken).not.toMatch(/[`*#|~<>[\]]/);
    expect(spoken).not.toMatch(/https?:|docs\.python\.org|value_\d|def total/);
    expect(spoken).toContain('Sorting a list.');
    expect(spoken).toContain('Use the built-in sorted function; see the Python docs for details.');
    expect(spoken).toMatch(/code block in Python, 12 lines/i);
    expect(spoken).toContain('That is all.');
    await context.close();
  }, 120_000);

  it('a reply still being written shows in another tab and in a page opened again, growing, then stored', async () => {
    const { context, page } = await openChat();
    await page.getByLabel('Message', { exact: true }).fill('Tell it slowly');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.waitForURL('**/chat/*');
    await page.locator('.message--draft').getByText('word1', { exact: false }).waitFor();
    // Another tab: the reply is being written by a stream it does not hold.
    const other = await context.newPage();
    await other.goto(page.url());
    const elsewhere = other.locator('article.message--draft');
    await elsewhere.waitFor();
    await other.getByRole('button', { name: 'Stop generating' }).waitFor();
    // It grows as the chat service saves it (every second; read again every 1.5 s).
    const words = async () => (await elsewhere.innerText()).split(/\s+/).filter((w) => w.startsWith('word')).length;
    const first = await words();
    await until('the reply to grow in the other tab', async () => (await words()) > first, 20_000, 200);
    await screenshot(other, 'reply-written-elsewhere');
    // The first tab leaves the page (its stream is cut) and comes back: still there, still growing.
    const url = page.url();
    await page.goto('/settings');
    await page.goto(url);
    await page.locator('article.message--draft').waitFor();
    // Stored: both tabs show the whole reply, and nothing is being written any more.
    for (const tab of [page, other]) {
      const stored = tab.locator('article.message--assistant:not(.message--draft)');
      await stored.waitFor({ timeout: 60_000 });
      expect((await stored.innerText()).trim().endsWith('word80')).toBe(true);
      expect(await tab.locator('.message--draft').count()).toBe(0);
      await tab.getByRole('button', { name: 'Send message' }).waitFor();
    }
    await context.close();
  }, 120_000);

  it('on a phone (390 px) the header gives the title its room, with an ellipsis only when it is really long', async () => {
    const { context, page } = await openChat(VIEWPORTS.narrow);
    await ask(page, 'Say something plain.');
    await page.waitForURL(/\/chat\/[^/]+$/);
    const chatId = new URL(page.url()).pathname.split('/').pop()!;
    const rename = (title: string) =>
      page.evaluate(
        async ({ chatId, title }) => {
          const res = await fetch(`/api/v1/chats/${chatId}`, {
            method: 'PATCH',
            headers: { authorization: `Bearer ${localStorage.getItem('access_token')}`, 'content-type': 'application/json' },
            body: JSON.stringify({ conversation_title: title }),
          });
          return res.status;
        },
        { chatId, title },
      );
    const heading = page.locator('header h1');
    const measure = () =>
      heading.evaluate((h1) => ({
        text: h1.textContent,
        width: h1.getBoundingClientRect().width,
        cut: h1.scrollWidth > h1.clientWidth + 1 || h1.scrollHeight > h1.clientHeight + 1,
      }));

    expect(await rename(LONG_TITLE)).toBe(200);
    await page.reload();
    await heading.filter({ hasText: LONG_TITLE }).waitFor();
    const long = await measure();
    await screenshot(page, 'render-phone-header-title');
    expect(long.cut).toBe(false);

    expect(await rename(VERY_LONG_TITLE)).toBe(200);
    await page.reload();
    await heading.filter({ hasText: 'Planning' }).waitFor();
    const veryLong = await measure();
    await screenshot(page, 'render-phone-header-very-long-title');
    expect(veryLong.cut).toBe(true);
    expect(await heading.evaluate((h1) => getComputedStyle(h1).textOverflow)).toBe('ellipsis');
    // What the header still offers on a phone: the sidebar, the conversation's options (with sharing), signing up.
    await page.getByRole('button', { name: 'Conversation options' }).click();
    await page.getByRole('button', { name: 'Share conversation' }).waitFor();
    await screenshot(page, 'render-phone-header-menu');
    figures.phoneHeader = {
      longTitle: { characters: LONG_TITLE.length, ...long },
      veryLongTitle: { characters: VERY_LONG_TITLE.length, ...veryLong },
    };
    await context.close();
  }, 120_000);

  it('the chat page has one <main> landmark, holding the conversation and the composer', async () => {
    const { context, page } = await openChat();
    const main = page.getByRole('main');
    expect(await main.count()).toBe(1);
    await main.getByLabel('Message', { exact: true }).waitFor();
    await ask(page, 'Say something plain.');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('main').locator('article.message--assistant').count()).toBe(1);
    // The banner (the header with the title) is outside it.
    expect(await page.getByRole('main').locator('header').count()).toBe(0);
    await context.close();
  }, 60_000);

  it("shows the app's frame with a skeleton before its code has arrived, then the chat", async () => {
    const context = await suite.browser.newContext({ baseURL: suite.product.url, viewport: VIEWPORTS.wide, deviceScaleFactor: 1 });
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    // The application's code is held back until the skeleton has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/chat', { waitUntil: 'commit' });
    const skeleton = page.locator('[data-app-skeleton]');
    await skeleton.waitFor();
    expect(await skeleton.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('main').count()).toBe(1);
    const box = await skeleton.boundingBox();
    expect(box!.width).toBeGreaterThan(1000);
    await screenshot(page, 'render-skeleton-wide');
    // Then the code runs while the session is still being checked: the chat's own skeleton carries the frame on.
    let releaseAuth!: () => void;
    const heldAuth = new Promise<void>((resolve) => (releaseAuth = resolve));
    await page.route('**/api/v1/auth/**', async (route) => {
      await heldAuth;
      await route.continue();
    });
    release();
    const chatSkeleton = page.locator('[data-chat-skeleton]');
    await chatSkeleton.waitFor();
    expect(await skeleton.count()).toBe(0);
    expect(await chatSkeleton.getAttribute('aria-busy')).toBe('true');
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Hide sidebar' }).count()).toBe(1);
    // Neither "Sign in to keep your conversations" nor an empty list while it is not known who this is.
    expect(await page.getByText('Sign in to keep your conversations.').count()).toBe(0);
    await screenshot(page, 'render-skeleton-wide-session');
    releaseAuth();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    expect(await chatSkeleton.count()).toBe(0);
    await context.close();

    // The same on a phone, light theme.
    const phone = await suite.browser.newContext({ baseURL: suite.product.url, viewport: VIEWPORTS.narrow, deviceScaleFactor: 1 });
    const phonePage = await phone.newPage();
    await phonePage.addInitScript(() => {
      localStorage.setItem('firstTimeModalShown', 'true');
      localStorage.setItem('isDarkMode', 'false');
    });
    let releasePhone!: () => void;
    const heldPhone = new Promise<void>((resolve) => (releasePhone = resolve));
    await phonePage.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await heldPhone;
      await route.continue();
    });
    await phonePage.goto('/chat', { waitUntil: 'commit' });
    await phonePage.locator('[data-app-skeleton]').waitFor();
    await screenshot(phonePage, 'render-skeleton-phone-light');
    releasePhone();
    await phonePage.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await phone.close();
  }, 120_000);

  it('on a slow network (400 ms round trip, 50 KB/s) the frame paints long before the chat is ready', async () => {
    const context = await suite.browser.newContext({ baseURL: suite.product.url, viewport: VIEWPORTS.wide, deviceScaleFactor: 1 });
    context.setDefaultTimeout(60_000);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 400,
      downloadThroughput: 50 * 1024,
      uploadThroughput: 50 * 1024,
    });
    await page.goto('/chat', { waitUntil: 'commit' });
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    // Times from the navigation's start, as the page measured them.
    const timing = await page.evaluate(() => {
      const paint = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? null;
      const script = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) =>
        /\/assets\/index-[^/]+\.js$/.test(e.name),
      );
      return {
        firstPaint: paint('first-paint'),
        firstContentfulPaint: paint('first-contentful-paint'),
        mainScriptEnd: script?.responseEnd ?? null,
        composerShown: performance.now(),
      };
    });
    figures.slowNetwork = Object.fromEntries(Object.entries(timing).map(([name, ms]) => [name, ms === null ? null : Math.round(ms)]));
    // The first paint is the frame (the skeleton: the brand is its contentful part), before the application's code has even arrived.
    expect(timing.firstPaint).not.toBeNull();
    expect(timing.mainScriptEnd).not.toBeNull();
    expect(timing.firstPaint!).toBeLessThan(timing.mainScriptEnd!);
    expect(timing.firstContentfulPaint!).toBeLessThan(timing.mainScriptEnd!);
    await context.close();
  }, 120_000);
});
