import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { expect, horizontalOverflow, KEEP_SCREENSHOTS, SCREENSHOTS, test } from './support';

/**
 * /docs is Scalar's reference over /v1/openapi.json: every operation is on it, at a desktop and at a phone width,
 * with nothing loaded from outside this server and nothing the page's Content-Security-Policy refuses.
 */

const WIDTHS = [
  { name: 'wide', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Violations in Scalar's own markup, which its configuration cannot change: each rule only on the elements named.
 * Sidebar entries are buttons carrying aria-selected; the copy-code buttons, the search button and the phone menu's
 * button are icons without a name; the client-library tabs hold buttons where tabs belong; the endpoint lists of a
 * tag scroll without a focusable item.
 */
const SCALAR_MARKUP: Record<string, (html: string) => boolean> = {
  'aria-allowed-attr': (html) => /^<button aria-selected="(true|false)"/.test(html),
  'button-name': (html) => html.includes('group/copy-button') || html.startsWith('<button role="search"') || /^<button[^>]* id="headlessui-popover-button-/.test(html),
  'aria-required-children': (html) => html.includes('class="client-libraries-list"'),
  'scrollable-region-focusable': (html) => /^<ul[^>]* aria-label="[^"]+ endpoints" class="endpoints"/.test(html),
};

/**
 * Every tag's section is built of the same components (operations, parameters, bodies, responses, code samples), and
 * a page of every operation is tens of thousands of elements: axe reads everything but the sections after the
 * introduction and the first two tags. Contrast does not change with the width: it is read at the first width only.
 */
const REPEATED_TAG_SECTIONS = '.narrow-references-container > .section-container:nth-child(n+4)';

async function seriousViolationsOutsideScalarMarkup(page: Page, withContrast: boolean): Promise<string[]> {
  const axe = new AxeBuilder({ page }).exclude(REPEATED_TAG_SECTIONS);
  const { violations } = await (withContrast ? axe : axe.disableRules(['color-contrast'])).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.filter((n) => !SCALAR_MARKUP[v.id]?.(n.html)).map((n) => `${v.impact} ${v.id}: ${v.help} (${JSON.stringify(n.target)})`));
}

test('the API reference shows every operation, needs nothing from outside, and reads well at 1280 and 390 px', async ({ page, request }) => {
  test.setTimeout(300_000);
  const document = (await (await request.get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
  const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
  expect(operations.length).toBeGreaterThanOrEqual(45);

  const outside: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (['data:', 'blob:'].includes(url.protocol)) return;
    if (!['127.0.0.1', 'localhost'].includes(url.hostname)) outside.push(r.url());
  });
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  const problems: string[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/docs');
    await expect(page.getByRole('heading', { level: 1, name: 'Escrow Desk API' })).toBeVisible({ timeout: 60_000 });
    // Every operation's section is on the page, headed by its summary.
    const headings = page.locator('h3.section-header-label');
    await expect(headings.filter({ hasText: operations.at(-1)!.summary })).toHaveCount(1, { timeout: 60_000 });
    const shown = new Set((await headings.allTextContents()).map((text) => text.trim()));
    expect(operations.filter((op) => !shown.has(op.summary)).map((op) => `${op.operationId}: ${op.summary}`), `${size.width} px`).toEqual([]);
    // The window only: the whole page is tens of thousands of pixels tall.
    if (KEEP_SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, 'api-reference', `docs-${size.name}.png`) });
    for (const violation of await seriousViolationsOutsideScalarMarkup(page, size === WIDTHS[0])) problems.push(`${size.width} px: ${violation}`);
    const overflow = await horizontalOverflow(page);
    if (overflow > 0) problems.push(`${size.width} px: ${overflow} px wider than the window`);
  }
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
  expect(refused).toEqual([]);
  expect(errors).toEqual([]);
});
