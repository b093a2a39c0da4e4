import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

export type AxeViolation = { id: string; impact: string | null; nodes: number; sample: string };

let source: string | null = null;

/**
 * axe-core's WCAG 2.1 A/AA violations on the page (or within `include`, a CSS selector), as the
 * quality suite runs it. The page's context needs `bypassCSP: true` for the script to be added.
 */
export async function axeViolations(page: Page, include?: string): Promise<AxeViolation[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: source });
  return page.evaluate(async (selector) => {
    type Result = { violations: { id: string; impact: string | null; nodes: { html: string }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: unknown, options: object) => Promise<Result> } }).axe;
    const context = selector ? { include: [selector] } : document;
    const result = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.length,
      sample: v.nodes[0]?.html.slice(0, 200) ?? '',
    }));
  }, include ?? null);
}
