import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, processesUsing } from '../../support/processes';
import { FakeOpenAI, launchChromium, type FakeOpenAIOptions } from '@app/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const root = join(__dirname, '../../..');
const main = join(root, 'deploy/embedded/dist/main.js');
export const SCREENSHOTS = join(root, 'test-results/screenshots');

export interface Product {
  url: string;
  /** Where the embedded PostgreSQL keeps its data (and its password file). */
  dataDir: string;
  /** The embedded PostgreSQL's port. */
  pgPort: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** The product as `npm start` runs it (the built embedded host), on free ports and a temporary data directory. */
export async function startProduct(env: NodeJS.ProcessEnv = {}): Promise<Product> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first.`);
  if (!existsSync(join(root, 'web/dist/index.html'))) throw new Error('web/dist is missing: run `npm run build` first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'assistant-browser-'));
  // A given PORT keeps the origin across restarts (the installable suite's "new build").
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const pgPort = await freePort();
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      GIT_COMMIT: 'browser-test',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Not ready within 120 s:\n${output}`)), 120_000);
    const poll = setInterval(() => {
      if (output.includes('Assistant is ready: http://')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`Exited with ${code} before being ready:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    pgPort,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      for (const pid of processesUsing(dataDir)) process.kill(pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, with `extraArgs` after the usual flags (a fake microphone, autoplay). */
export const launchBrowser = (extraArgs: string[] = []): Promise<Browser> => launchChromium(extraArgs);

/**
 * One product (started with `env`) and one browser for the suite it is called in: both ready before
 * its first test and stopped after its last. Read `suite.product` and `suite.browser` inside tests.
 */
export function productSuite(env: NodeJS.ProcessEnv = {}): { readonly product: Product; readonly browser: Browser } {
  const suite = {} as { product: Product; browser: Browser };
  beforeAll(async () => {
    suite.browser = await launchBrowser();
    suite.product = await startProduct(env);
  }, 90_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.product?.stop();
  });
  return suite;
}

/**
 * productSuite with a scripted model: a fake OpenAI-compatible server answering `replies` (with
 * `apiKey`), the product pointed at it (no automatic model choice), and the figures a suite
 * measures written to test-results/<figuresFile> (and logged) after its last test.
 */
export function scriptedModelSuite(options: {
  apiKey: string;
  replies: NonNullable<FakeOpenAIOptions['defaultReplies']>;
  figuresFile: string;
  figuresLabel: string;
}): { readonly product: Product; readonly browser: Browser; readonly figures: Record<string, unknown> } {
  const openai = new FakeOpenAI({ apiKey: options.apiKey, defaultReplies: options.replies });
  const suite = { figures: {} } as { product: Product; browser: Browser; figures: Record<string, unknown> };
  beforeAll(async () => {
    await openai.start();
    suite.browser = await launchBrowser();
    suite.product = await startProduct({ OPENAI_BASE_URL: openai.baseURL, OPENAI_API_KEY: options.apiKey, CHAT_AUTO_MODEL: 'false' });
  }, 90_000);
  afterAll(async () => {
    mkdirSync(join(root, 'test-results'), { recursive: true });
    writeFileSync(join(root, 'test-results', options.figuresFile), JSON.stringify(suite.figures, null, 2));
    console.log(options.figuresLabel, JSON.stringify(suite.figures, null, 2));
    await suite.browser?.close();
    await suite.product?.stop();
    await openai.stop();
  });
  return suite;
}

/**
 * A new page of `context` on the empty chat as a guest, past the first-time dialog, its page errors
 * collected in `errors` (a test reads them at its end).
 */
export async function openGuestChat(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
  await page.goto('/chat');
  await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
  return { page, errors };
}

export const VIEWPORTS = { narrow: { width: 390, height: 844 }, wide: { width: 1440, height: 900 } } as const;

export async function newContext(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = VIEWPORTS.wide,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, deviceScaleFactor: 1, acceptDownloads: true });
  context.setDefaultTimeout(15_000);
  return context;
}

/** Saves a screenshot under test-results/screenshots/ (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** A guest token straight from the API, to ask the server what it serves. */
export async function guestToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/auth/anon`, { method: 'POST' });
  return ((await res.json()) as { token: string }).token;
}

/** Whether the chat API is there (GET /api/v1/chats/ answers 200 to a guest rather than 404). */
export async function chatApiAvailable(baseUrl: string): Promise<boolean> {
  const token = await guestToken(baseUrl);
  const res = await fetch(`${baseUrl}/api/v1/chats/`, { headers: { authorization: `Bearer ${token}` } });
  return res.status === 200;
}

/** The code the console sink "texted" to a number, from the development inbox. */
export async function smsCodeFor(baseUrl: string, phone: string, timeout = 30_000): Promise<string> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`);
    const body = (await res.json()) as { messages: { to: string; body: string }[] };
    const code = body.messages.find((m) => m.to === phone)?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No code texted to ${phone} within ${timeout / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A statement run as an operator would, on the product's embedded PostgreSQL (password from DATA_DIR). */
export async function productSql(product: Product, text: string, params: unknown[] = []): Promise<unknown[]> {
  const { Client } = await import('pg');
  const password = readFileSync(join(product.dataDir, 'postgres.password'), 'utf8').trim();
  const client = new Client({
    connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${product.pgPort}/postgres`,
  });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Signs in on /login with a texted code (read from the development inbox) and onboards to /confirm-memories. */
export async function signInAndOnboard(page: Page, productUrl: string, phone: string, name: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Mobile number').fill(phone);
  await page.getByRole('button', { name: 'Text me a code' }).click();
  // The code is stored before the page moves to its code step, so wait for that step (or the
  // refusal the page shows instead, which then fails the test with its words) before reading it.
  const codeStep = page.getByLabel('Code');
  const refusal = page.getByRole('alert');
  await codeStep.or(refusal).first().waitFor({ timeout: 60_000 });
  if (await refusal.isVisible()) throw new Error(`The code was not sent: ${await refusal.textContent()}`);
  await codeStep.fill(await smsCodeFor(productUrl, phone));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await onboard(page, name);
}

/** From /new-user (age, then name) to /confirm-memories. */
export async function onboard(page: Page, name: string): Promise<void> {
  await page.waitForURL('**/new-user');
  await page.getByLabel('Your date of birth').fill('1990-04-23');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/onboarding');
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/confirm-memories');
}

/**
 * What `read` says of the focused element, once it says `expected` (within `timeout`). Focus often
 * moves on the next frame or after a re-render: reading it once right after an action races that.
 */
export async function expectFocus(
  page: Page,
  read: (active: Element | null) => unknown,
  expected: unknown,
  timeout = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeout;
  let seen: unknown;
  for (;;) {
    const active = await page.evaluateHandle(() => document.activeElement);
    seen = await active.evaluate(read);
    await active.dispose();
    if (Object.is(seen, expected) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!Object.is(seen, expected)) throw new Error(`the focused element gave ${JSON.stringify(seen)}, expected ${JSON.stringify(expected)}`);
}

/** A message as the chat service stores it, written `minutes` ago (a user's by the conversation's user). */
export type StoredMessage = { id: string; sender: 'user' | 'assistant'; content: string; previous: string | null; minutes: number };

/**
 * A conversation of the page's user whose messages are written straight into the chat service's
 * tables (hundreds at once, dated, on several branches), titled, `active` its active message.
 */
export async function seedConversation(
  product: Product,
  page: Page,
  title: string,
  messages: StoredMessage[],
  active: string,
): Promise<string> {
  const chatId = await page.evaluate(async () => {
    const headers = { authorization: `Bearer ${localStorage.getItem('access_token')!}`, 'content-type': 'application/json' };
    return (await (await fetch('/api/v1/chats/', { method: 'POST', headers, body: '{}' })).json()).chat_id as string;
  });
  const [{ user_id: userId }] = (await productSql(product, 'SELECT user_id FROM chat.conversation WHERE id = $1', [chatId])) as {
    user_id: string;
  }[];
  const rows = messages.map((message) => ({ ...message, author: message.sender === 'user' ? userId : null }));
  await productSql(
    product,
    `INSERT INTO chat.message (id, chat_id, user_id, sender, author_user_id, content, previous_message_id, created_at)
     SELECT r.id, $1, $2, r.sender, r.author, r.content, r.previous, now() - make_interval(mins => r.minutes)
     FROM jsonb_to_recordset($3::jsonb) AS r(id uuid, sender text, author uuid, content text, previous uuid, minutes int)`,
    [chatId, userId, JSON.stringify(rows)],
  );
  await productSql(product, 'UPDATE chat.conversation SET title = $2, last_active_message_id = $3, last_message_at = now() WHERE id = $1', [
    chatId,
    title,
    active,
  ]);
  return chatId;
}
