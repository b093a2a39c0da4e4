import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests and benchmarks drive (never a downloaded browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** What to tell someone whose machine has no Chromium. */
export const CHROMIUM_MISSING = `Chromium is not installed at ${CHROMIUM_PATH}. The browser tests and benchmarks drive Debian's Chromium: run \`apt-get install -y chromium\` (or set CHROMIUM_PATH).`;

export const chromiumInstalled = (): boolean => existsSync(CHROMIUM_PATH);

/** The flags every run needs on a headless, sandboxless, offline machine. */
const BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium through playwright-core, with `extraArgs` after the usual flags (a fake microphone,
 * autoplay). playwright-core is loaded only here, so suites that never open a browser do not pay for it.
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!chromiumInstalled()) throw new Error(CHROMIUM_MISSING);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BASE_ARGS, ...extraArgs] });
}
